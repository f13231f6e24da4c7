import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUpdateAnswerBoxes } from '../api/update-answer-boxes';
import type { AnswerBox, AnswerBoxSample } from '../api/types';
import { useBoxDraft } from '../hooks/use-box-draft';
import { pathKey, questionLabel, type BoxQuestion } from '../lib/questions';
import { BoxFields } from './BoxFields';
import { PageCanvas } from './PageCanvas';
import { QuestionBoxList } from './QuestionBoxList';

/** Props for {@link AnswerBoxEditor}. */
export interface AnswerBoxEditorProps {
  assignmentId: string;
  sample: AnswerBoxSample;
  /** The boxes as last saved. */
  boxes: AnswerBox[];
  questions: BoxQuestion[];
}

/**
 * Draws the boxes: the questions on one side, a page of the sample submission on the other.
 * Select a question, then drag on the page (or type the box's place) and Save.
 */
export function AnswerBoxEditor({ assignmentId, sample, boxes, questions }: AnswerBoxEditorProps) {
  const { showToast } = useToast();
  const draft = useBoxDraft(boxes, questions);
  const save = useUpdateAnswerBoxes();
  const [selected, setSelected] = useState<BoxQuestion | null>(questions[0] ?? null);
  // Open on the page of the first question's box, if it has one.
  const [page, setPage] = useState(() => {
    const first = questions[0] && boxes.find((box) => pathKey(box.path) === pathKey(questions[0].path));
    return first && first.page < sample.pageCount ? first.page : 0;
  });

  const labels = useMemo(() => new Map(questions.map((q) => [pathKey(q.path), q.label])), [questions]);
  const labelOf = useCallback((path: number[]) => labels.get(pathKey(path)) ?? questionLabel(path), [labels]);

  const select = (question: BoxQuestion) => {
    setSelected(question);
    // Show the page the question's box is on.
    const box = draft.boxOf(question.path);
    if (box && box.page < sample.pageCount) setPage(box.page);
  };

  const onSave = () => {
    save.mutate(
      { assignmentId, boxes: draft.boxes },
      {
        onSuccess: (savedBoxes) => {
          draft.markSaved(savedBoxes);
          showToast({ type: 'success', message: 'Answer boxes saved. Cropping answers…' });
        },
        onError: (error) =>
          showToast({ type: 'error', message: errorMessage(error, "Couldn't save the answer boxes. Please try again.") }),
      },
    );
  };

  const selectedBox = selected ? draft.boxOf(selected.path) : undefined;
  const pageOptions = Array.from({ length: sample.pageCount }, (_, i) => i);

  return (
    <>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 3fr)' },
          gap: { xs: 2, md: 3 },
          alignItems: 'start',
        }}
      >
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
          <QuestionBoxList
            questions={questions}
            boxOf={draft.boxOf}
            selectedPath={selected?.path ?? null}
            onSelect={select}
            onClear={(question) => draft.clearBox(question.path)}
          />
          {selected && (
            <BoxFields
              key={pathKey(selected.path)}
              label={selected.label}
              box={selectedBox}
              page={page}
              onAdd={(rect) => draft.setBox(selected.path, page, rect)}
              onChange={(change) => draft.updateBox(selected.path, change)}
            />
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1.5, flexWrap: 'wrap' }}>
            <TextField
              select
              label="Page"
              size="small"
              value={page}
              onChange={(event) => setPage(Number(event.target.value))}
              slotProps={{ select: { native: true } }}
              sx={{ width: 140 }}
            >
              {pageOptions.map((i) => (
                <option key={i} value={i}>
                  {`${i + 1} of ${sample.pageCount}`}
                </option>
              ))}
            </TextField>
            <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 180px' }}>
              {selected
                ? `Drag on the page to draw the box for question ${selected.label}.`
                : 'Select a question, then drag on the page to draw its box.'}
            </Typography>
          </Box>
          <PageCanvas
            submissionId={sample.submissionId}
            page={page}
            pageCount={sample.pageCount}
            boxes={draft.boxes.filter((box) => box.page === page)}
            labelOf={labelOf}
            selectedPath={selected?.path ?? null}
            onDraw={(rect) => selected && draft.setBox(selected.path, page, rect)}
          />
        </Box>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 2, mt: 2.5, flexWrap: 'wrap' }}>
        {draft.dirty && (
          <Typography variant="body2" color="text.secondary">
            Unsaved changes
          </Typography>
        )}
        <Button variant="contained" onClick={onSave} loading={save.isPending} disabled={!draft.dirty}>
          Save answer boxes
        </Button>
      </Box>
    </>
  );
}
