import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { ApiError } from '../../../../lib/api-client';
import { useAssignmentFunction } from '../../api/get-function';
import { useRubricList } from '../../../../lib/rubrics';
import type { Assignment, AssignmentFunction, Question } from '../../api/types';
import { criteriaLabel } from '../../lib/labels';
import { HighlighterList } from '../view/HighlighterList';
import { QuestionTreeView } from '../view/QuestionTreeView';
import { RubricTable } from '../view/RubricTable';

function hasRubric(questions: Question[]): boolean {
  return questions.some((q) => q.rubricId !== null || hasRubric(q.subquestions ?? []));
}

function Subheading({ children }: { children: string }) {
  return (
    <Typography variant="h3" sx={{ fontSize: '1rem', mb: 1.5 }}>
      {children}
    </Typography>
  );
}

function GradeDefinition({ fn }: { fn: AssignmentFunction }) {
  const questions = fn.questions ?? [];
  const rubrics = useRubricList({ enabled: hasRubric(questions) });
  const names = useMemo(() => new Map((rubrics.data ?? []).map((r) => [r._id, r.name])), [rubrics.data]);
  return <QuestionTreeView questions={questions} rubricNames={names} />;
}

function Definition({ fn, type }: { fn: AssignmentFunction; type: Assignment['type'] }) {
  switch (type) {
    case 'feedback':
      return (
        <Stack spacing={3}>
          <Box>
            <Subheading>Question context</Subheading>
            <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {fn.context?.trim() ? fn.context : <Box component="span" sx={{ color: 'text.secondary' }}>None given.</Box>}
            </Typography>
          </Box>
          <Box>
            <Subheading>Highlighters</Subheading>
            <HighlighterList highlights={fn.highlights ?? []} />
          </Box>
        </Stack>
      );
    case 'grade':
      return <GradeDefinition fn={fn} />;
    case 'rubric-feedback':
      if (!fn.rubric) {
        return <Alert severity="warning">The rubric of this assignment is no longer in your team&apos;s library.</Alert>;
      }
      return (
        <Stack spacing={1.5}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1.5 }}>
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{fn.rubric.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {criteriaLabel(fn.rubric.criteria.length)}
            </Typography>
          </Box>
          <RubricTable rubric={fn.rubric} />
        </Stack>
      );
    case 'prompt':
      return (
        <Box
          sx={{
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            bgcolor: 'rgba(23, 97, 107, 0.04)',
            border: 1,
            borderColor: 'divider',
            borderRadius: '10px',
            p: { xs: 2, sm: 2.5 },
          }}
        >
          <Typography>{fn.prompt}</Typography>
        </Box>
      );
  }
}

/** An assignment's definition, read-only, in the form its type calls for. */
export function DefinitionView({ assignment }: { assignment: Assignment }) {
  const fn = useAssignmentFunction(assignment._id, assignment.type);
  if (fn.isPending) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, color: 'text.secondary', py: 2 }}>
        <CircularProgress size={20} aria-label="Loading definition" />
        <Typography color="inherit">Loading…</Typography>
      </Box>
    );
  }
  if (fn.isError) {
    if (fn.error instanceof ApiError && fn.error.status === 404) {
      return <Alert severity="info">This assignment has no definition yet.</Alert>;
    }
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void fn.refetch()}>
            Try again
          </Button>
        }
      >
        We couldn&apos;t load the definition.
      </Alert>
    );
  }
  return <Definition fn={fn.data} type={assignment.type} />;
}
