import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import { useEffect, useId, useRef } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { LoadError } from '../../../components/LoadError';
import { errorMessage } from '../../../lib/api-client';
import { useAnswerBoxes } from '../api/get-answer-boxes';
import type { BoxQuestion } from '../lib/questions';
import { usesAnswerBoxes } from '../lib/uses-answer-boxes';

// Loads when first drawn: the page's first load does not carry it (docs/performance.md, "First load").
const AnswerBoxEditor = lazyComponent(() => import('./AnswerBoxEditor').then((m) => m.AnswerBoxEditor));

/** Props for {@link AnswerBoxesPanel}. */
export interface AnswerBoxesPanelProps {
  assignment: { _id: string; type: string; isHandWritten: boolean };
  /** Every question of the assignment with its path and label ({@link flattenQuestions}). */
  questions: BoxQuestion[];
  /**
   * How many of the assignment's submissions are ready. When it changes the panel asks again
   * which submission to draw on (the first one becomes ready, or the sample was deleted).
   */
  readySubmissions?: number;
}

/**
 * "Answer boxes" on a handwritten grade assignment's page: the teacher draws once, on a page of
 * one submission, where each question's answer is written; the server crops every submission's
 * answers from those boxes. Renders nothing for other assignments.
 */
export function AnswerBoxesPanel({ assignment, questions, readySubmissions }: AnswerBoxesPanelProps) {
  const headingId = useId();
  const shown = usesAnswerBoxes(assignment);
  const query = useAnswerBoxes(assignment._id, shown);
  const { refetch } = query;

  const lastReady = useRef(readySubmissions);
  useEffect(() => {
    if (lastReady.current === readySubmissions) return;
    lastReady.current = readySubmissions;
    void refetch();
  }, [readySubmissions, refetch]);

  if (!shown) return null;

  let body;
  if (query.isPending) {
    body = <Skeleton variant="rounded" height={160} role="progressbar" aria-label="Loading the answer boxes" />;
  } else if (query.isError) {
    body = (
      <LoadError
        message={errorMessage(query.error, "Couldn't load the answer boxes.")}
        onRetry={() => void refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (questions.length === 0) {
    body = <Alert severity="info">Add questions to this assignment first: each question gets its own box.</Alert>;
  } else if (!query.data.sample) {
    body = <Alert severity="info">Upload a submission first: the boxes are drawn on one of its pages.</Alert>;
  } else {
    body = (
      <AnswerBoxEditor
        key={query.data.sample.submissionId}
        assignmentId={assignment._id}
        sample={query.data.sample}
        boxes={query.data.boxes}
        questions={questions}
      />
    );
  }

  return (
    <Card component="section" aria-labelledby={headingId}>
      <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
        <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem', mb: 0.5 }}>
          Answer boxes
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Show where each answer is written: draw one box per question on a sample page. Every
          submission's answers are cut out from the same places, so students should use the same
          answer sheet.
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
