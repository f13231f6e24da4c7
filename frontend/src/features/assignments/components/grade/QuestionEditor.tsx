import AddRounded from '@mui/icons-material/AddRounded';
import ArrowDownwardRounded from '@mui/icons-material/ArrowDownwardRounded';
import ArrowUpwardRounded from '@mui/icons-material/ArrowUpwardRounded';
import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import CloseRounded from '@mui/icons-material/CloseRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import SubdirectoryArrowRightRounded from '@mui/icons-material/SubdirectoryArrowRightRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Tooltip } from '../../../../components/Tooltip';
import Typography from '@mui/material/Typography';
import { memo, useId, useState } from 'react';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import type { Rubric } from '../../api/types';
import { pointsLabel } from '../../lib/labels';
import {
  canNest,
  isBlankQuestion,
  MAX_CRITERION_POINTS,
  MAX_QUESTION_DEPTH,
  newCriterion,
  parsePoints,
  questionNumber,
  questionPoints,
  type CriterionDraft,
  type QuestionDraft,
  type QuestionPath,
} from '../../lib/questions';

/** Tooltip on the disabled "Add subquestion" button at the deepest level. */
export const NESTING_LIMIT_MESSAGE = `Questions nest at most ${MAX_QUESTION_DEPTH} levels`;

/** The team's rubrics as the rubric select offers them. */
export interface RubricOptions {
  rubrics: Rubric[];
  loading: boolean;
  failed: boolean;
}

/** What a question editor can do to the tree it sits in. */
export interface QuestionTreeActions {
  update: (path: QuestionPath, update: (question: QuestionDraft) => QuestionDraft) => void;
  remove: (path: QuestionPath) => void;
  move: (path: QuestionPath, delta: number) => void;
  addSubquestion: (path: QuestionPath) => void;
  suggestCriteria: (question: QuestionDraft, path: QuestionPath) => void;
  /** Id of the question whose criteria are being suggested, if any. */
  suggestingId: string | null;
  rubricOptions: RubricOptions;
  /** Id of a question just added, whose text field takes focus. */
  addedId: string | null;
}

/** Props for {@link QuestionEditor}. */
export interface QuestionEditorProps {
  question: QuestionDraft;
  path: QuestionPath;
  siblingCount: number;
  actions: QuestionTreeActions;
}

/**
 * One question of a grade assignment and, nested under it, its subquestions: question text,
 * context, an optional rubric, criteria with points, and buttons to suggest criteria, add a
 * subquestion (not at the third level), reorder and remove. A top-level question is a card;
 * deeper ones hang from a rule on the left.
 */
export const QuestionEditor = memo(function QuestionEditor({ question, path, siblingCount, actions }: QuestionEditorProps) {
  const headingId = useId();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const number = questionNumber(path);
  const index = path[path.length - 1];
  const topLevel = path.length === 1;
  const points = questionPoints(question);
  const { rubricOptions } = actions;

  const setCriteria = (update: (criteria: CriterionDraft[]) => CriterionDraft[]) =>
    actions.update(path, (q) => ({ ...q, criteria: update(q.criteria) }));
  const setCriterion = (id: string, change: Partial<CriterionDraft>) =>
    setCriteria((criteria) => criteria.map((c) => (c.id === id ? { ...c, ...change } : c)));

  const remove = () => {
    if (isBlankQuestion(question)) actions.remove(path);
    else setConfirmRemove(true);
  };

  const body = (
    <>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, mb: 2 }}>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1.5, pt: 0.75 }}>
          <Typography id={headingId} variant="h3" sx={{ fontSize: topLevel ? '1.0625rem' : '1rem' }}>
            Question {number}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {pointsLabel(points)}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', flexShrink: 0, mr: -1 }}>
          <Tooltip title="Move up">
            <span>
              <IconButton aria-label={`Move question ${number} up`} disabled={index === 0} onClick={() => actions.move(path, -1)}>
                <ArrowUpwardRounded fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title="Move down">
            <span>
              <IconButton
                aria-label={`Move question ${number} down`}
                disabled={index === siblingCount - 1}
                onClick={() => actions.move(path, 1)}
              >
                <ArrowDownwardRounded fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title="Remove question">
            <IconButton aria-label={`Remove question ${number}`} onClick={remove}>
              <DeleteOutlineRounded fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>

      <Stack spacing={2}>
        <TextField
          label="Question text"
          value={question.questionText}
          required
          multiline
          minRows={2}
          autoFocus={question.id === actions.addedId}
          onChange={(event) => actions.update(path, (q) => ({ ...q, questionText: event.target.value }))}
        />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' }, alignItems: 'start' }}>
          <TextField
            label="Context"
            value={question.context}
            multiline
            minRows={1}
            helperText="Optional: the expected answer or marking notes for the AI."
            onChange={(event) => actions.update(path, (q) => ({ ...q, context: event.target.value }))}
          />
          <TextField
            select
            label="Rubric"
            value={question.rubricId ?? ''}
            onChange={(event) => actions.update(path, (q) => ({ ...q, rubricId: event.target.value || null }))}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            disabled={rubricOptions.loading && question.rubricId === null}
            helperText={
              rubricOptions.failed
                ? "Couldn't load your team's rubrics."
                : rubricOptions.loading
                  ? 'Loading rubrics…'
                  : 'Optional: use a saved rubric.'
            }
          >
            <option value="">No rubric</option>
            {rubricOptions.rubrics.map((r) => (
              <option key={r._id} value={r._id}>
                {r.name}
              </option>
            ))}
            {question.rubricId !== null && !rubricOptions.rubrics.some((r) => r._id === question.rubricId) && (
              <option value={question.rubricId}>Selected rubric</option>
            )}
          </TextField>
        </Box>

        <Box>
          <Typography variant="subtitle2" component="h4" sx={{ mb: 1.5 }}>
            Criteria
          </Typography>
          {question.criteria.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              No criteria yet. Add the points the AI should award, or let it suggest some.
            </Typography>
          ) : (
            <Stack spacing={1.5} sx={{ mb: 1.5 }}>
              {question.criteria.map((c, j) => {
                const pointsInvalid = parsePoints(c.points) === null;
                return (
                  <Box
                    key={c.id}
                    role="group"
                    aria-label={`Criterion ${j + 1} of question ${number}`}
                    sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1 }}
                  >
                    <TextField
                      label="Criterion"
                      size="small"
                      value={c.description}
                      multiline
                      placeholder="e.g. Names the main cause"
                      onChange={(event) => setCriterion(c.id, { description: event.target.value })}
                      sx={{ flex: '1 1 220px' }}
                    />
                    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'flex-start', flex: '0 0 auto', ml: 'auto' }}>
                      <TextField
                        label="Points"
                        size="small"
                        type="number"
                        value={c.points}
                        error={pointsInvalid}
                        onChange={(event) => setCriterion(c.id, { points: event.target.value })}
                        slotProps={{ htmlInput: { min: 0, max: MAX_CRITERION_POINTS, step: 'any', inputMode: 'decimal' } }}
                        sx={{ width: 96 }}
                      />
                      <IconButton
                        aria-label={`Remove criterion ${j + 1} of question ${number}`}
                        onClick={() => setCriteria((criteria) => criteria.filter((x) => x.id !== c.id))}
                        sx={{ mt: 0.25 }}
                      >
                        <CloseRounded fontSize="small" />
                      </IconButton>
                    </Box>
                  </Box>
                );
              })}
            </Stack>
          )}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <Button
              size="small"
              startIcon={<AddRounded />}
              onClick={() => setCriteria((criteria) => [...criteria, newCriterion()])}
              aria-label={`Add criterion to question ${number}`}
            >
              Add criterion
            </Button>
            <Button
              size="small"
              startIcon={<AutoAwesomeOutlined />}
              loading={actions.suggestingId === question.id}
              loadingPosition="start"
              onClick={() => actions.suggestCriteria(question, path)}
              aria-label={`Suggest criteria for question ${number}`}
            >
              Suggest criteria
            </Button>
            <Tooltip title={canNest(path) ? '' : NESTING_LIMIT_MESSAGE}>
              <span>
                <Button
                  size="small"
                  startIcon={<SubdirectoryArrowRightRounded />}
                  disabled={!canNest(path)}
                  onClick={() => actions.addSubquestion(path)}
                  aria-label={`Add subquestion to question ${number}`}
                >
                  Add subquestion
                </Button>
              </span>
            </Tooltip>
          </Box>
        </Box>
      </Stack>

      {question.subquestions.length > 0 && (
        <Stack spacing={2} sx={{ mt: 2.5 }}>
          {question.subquestions.map((sub, k) => (
            <QuestionEditor
              key={sub.id}
              question={sub}
              path={[...path, k]}
              siblingCount={question.subquestions.length}
              actions={actions}
            />
          ))}
        </Stack>
      )}

      <ConfirmDialog
        open={confirmRemove}
        title={`Remove question ${number}?`}
        description={
          question.subquestions.length > 0
            ? 'Its text, criteria and subquestions will be removed.'
            : 'Its text and criteria will be removed.'
        }
        confirmLabel="Remove"
        onClose={() => setConfirmRemove(false)}
        onConfirm={() => {
          setConfirmRemove(false);
          actions.remove(path);
        }}
      />
    </>
  );

  if (topLevel) {
    return (
      <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 } }}>
        {body}
      </Paper>
    );
  }
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ borderLeft: 3, borderColor: 'divider', pl: { xs: 1.5, sm: 2.5 }, py: 0.5 }}
    >
      {body}
    </Box>
  );
}, sameEditorProps);

/** Paths are rebuilt on every render, so they are compared by value. */
function sameEditorProps(a: QuestionEditorProps, b: QuestionEditorProps): boolean {
  return (
    a.question === b.question &&
    a.siblingCount === b.siblingCount &&
    a.actions === b.actions &&
    a.path.length === b.path.length &&
    a.path.every((p, i) => p === b.path[i])
  );
}
