import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import type { FunctionResult } from '../../api/types';
import type { ResultReviewProps } from '../../lib/definition';
import { formatPoints, levelRange, pointsFit, pointsForLevel, rubricMax, total } from '../../lib/rubric';
import { useSaveResult } from '../../lib/use-save-result';
import { useAutosave } from '../../hooks/use-autosave';
import { SaveStatus } from '../review/SaveStatus';
import { rubricHighlighters } from '../../lib/rubric-highlighters';
import { HighlightedText } from '../highlights/HighlightedText';
import { HighlighterChip } from '../highlights/HighlighterChip';
import { CriterionReview, type CriterionDraft } from './CriterionReview';
import type { RubricCriterion } from '../../../../lib/rubrics';

interface Draft {
  criteria: CriterionDraft[];
  overallComments: string;
}

function draftOf(result: FunctionResult, criteria: readonly RubricCriterion[]): Draft {
  return {
    criteria: criteria.map((c, i) => {
      const levels = Math.max(1, c.levelDescriptions.length);
      const level = Math.min(levels - 1, Math.max(0, Math.round(result.criteriaLevels[i] ?? 0)));
      // As the API totals them: without ranges the level decides the points, whatever was
      // stored; with ranges the stored points are kept within the level's range.
      const points = pointsForLevel(c, level, result.criteriaPoints[i] ?? levelRange(c, level)[0]);
      return { level, points: String(points), feedback: result.criteriaFeedback[i] ?? '' };
    }),
    overallComments: result.overallComments,
  };
}

function sameDraft(a: Draft, b: Draft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A rubric-feedback result: the total, each rubric criterion with its level (a radio group),
 * points and feedback, the overall comments, and the student's text with its highlights. A
 * teacher's changes are kept as a draft, the total follows them, and they are sent with
 * `functionResult/update` as the teacher goes (when the points are valid) or with "Save changes".
 */
export function RubricReview({ result, fn, readOnly = false, onChanged }: ResultReviewProps) {
  const criteria = fn.rubric?.criteria ?? [];
  const { current, save, saving } = useSaveResult(result, fn._id, onChanged);
  const highlighters = [...(fn.highlights ?? []), ...rubricHighlighters(criteria)];
  // The draft restarts when the saved result changes, not when a refetch brings the same one
  // back as a new object (the page polls): a teacher's unsaved choices survive a refetch. When
  // the change is the teacher's own save landing, what they chose since stays (it is saved next).
  const savedKey = `${current._id} ${current.updatedAt}`;
  const [base, setBase] = useState(savedKey);
  const [draft, setDraft] = useState(() => draftOf(current, criteria));
  const [sent, setSent] = useState<Draft | null>(null);
  const [dropped, setDropped] = useState(0);
  if (savedKey !== base) {
    const next = draftOf(current, criteria);
    setBase(savedKey);
    if (!sent || !sameDraft(next, sent)) {
      // Saved elsewhere: start from it, and send nothing of the draft it replaced (below).
      setDraft(next);
      setDropped((n) => n + 1);
    }
  }

  const valid = (d: Draft) => d.criteria.every((c, i) => c.points.trim() !== '' && pointsFit(criteria[i], c.level, Number(c.points)));
  const points = draft.criteria.map((c) => Number(c.points));
  const changed = !sameDraft(draft, draftOf(current, criteria));

  // Saved as the teacher goes (once typing stops, when a field or the screen is left) whenever
  // the points are valid, and at once with "Save changes"; the timer's saves come without a toast.
  const autosave = useAutosave<Draft>((changes, { quiet, keepalive }) => {
    const d = changes.get('draft');
    if (!d) return Promise.resolve(true);
    setSent(d);
    return save(
      {
        criteriaLevels: d.criteria.map((c) => c.level),
        criteriaPoints: d.criteria.map((c) => Number(c.points)),
        criteriaFeedback: d.criteria.map((c) => c.feedback),
        overallComments: d.overallComments,
      },
      { quiet, keepalive },
    );
  });
  const { discard } = autosave;
  useEffect(() => {
    if (dropped > 0) discard('draft');
  }, [dropped, discard]);

  const edit = (next: Draft) => {
    setDraft(next);
    if (valid(next) && !sameDraft(next, draftOf(current, criteria))) autosave.change('draft', next);
    else autosave.discard('draft');
  };
  const update = (i: number, patch: Partial<CriterionDraft>) =>
    edit({ ...draft, criteria: draft.criteria.map((c, j) => (j === i ? { ...c, ...patch } : c)) });

  const onSave = () => autosave.flush();

  return (
    <Stack spacing={3}>
      <Box
        role="status"
        aria-live="polite"
        sx={{ display: 'inline-flex', alignSelf: 'flex-start', alignItems: 'baseline', gap: 1, px: 2, py: 1, borderRadius: '10px', bgcolor: 'rgba(23, 97, 107, 0.08)' }}
      >
        <Typography component="span" sx={{ fontWeight: 600 }}>
          Total
        </Typography>
        <Typography component="span" sx={{ fontSize: '1.5rem', fontWeight: 700 }}>
          {`${valid(draft) ? formatPoints(total(points)) : '–'} / ${formatPoints(rubricMax(criteria))}`}
        </Typography>
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            Submission
          </Typography>
          {criteria.length > 0 && (
            <Box component="ul" aria-label="Highlight colours" sx={{ listStyle: 'none', m: 0, mb: 1.5, p: 0, display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
              {rubricHighlighters(criteria).map((h) => (
                <Box component="li" key={h.key} sx={{ minWidth: 0 }}>
                  <HighlighterChip color={h.color} label={h.title} />
                </Box>
              ))}
            </Box>
          )}
          <HighlightedText highlightedText={current.highlightedText} highlighters={highlighters} label="Submission with highlights" />
        </Box>
        <Stack spacing={2} sx={{ minWidth: 0 }} onBlur={() => autosave.flush()}>
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {fn.rubric?.name ? `Rubric: ${fn.rubric.name}` : 'Rubric'}
          </Typography>
          {criteria.length === 0 && <Typography color="text.secondary">This assignment's rubric has no criteria.</Typography>}
          {criteria.map((criterion, i) => (
            <CriterionReview
              key={i}
              criterion={criterion}
              index={i}
              draft={draft.criteria[i]}
              readOnly={readOnly}
              onLevel={(level) =>
                update(i, { level, points: String(pointsForLevel(criterion, level, Number(draft.criteria[i].points) || 0)) })
              }
              onPoints={(value) => update(i, { points: value })}
              onFeedback={(feedback) => update(i, { feedback })}
            />
          ))}
        </Stack>
      </Box>
      {readOnly ? (
        current.overallComments.trim() !== '' && (
          <Box>
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
              Overall comments
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{current.overallComments}</Typography>
          </Box>
        )
      ) : (
        <Box>
          <TextField
            label="Overall comments"
            value={draft.overallComments}
            onChange={(e) => edit({ ...draft, overallComments: e.target.value })}
            onBlur={() => autosave.flush()}
            multiline
            minRows={3}
            fullWidth
          />
          <Stack direction="row" spacing={1} sx={{ mt: 1.5, justifyContent: 'flex-end', alignItems: 'center' }}>
            <SaveStatus status={autosave.status} onRetry={() => autosave.flush()} />
            {!valid(draft) && (
              <Typography variant="body2" color="error">
                Fix the points before saving.
              </Typography>
            )}
            {changed && (
              <Button onClick={() => edit(draftOf(current, criteria))} disabled={saving}>
                Discard changes
              </Button>
            )}
            <Button variant="contained" onClick={onSave} disabled={!changed || !valid(draft)} loading={saving}>
              Save changes
            </Button>
          </Stack>
        </Box>
      )}
    </Stack>
  );
}
