import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Question } from '../../api/types';
import { formatPoints, pointsLabel } from '../../lib/labels';
import { questionNumber, savedTotalPoints } from '../../lib/questions';

/** Props for {@link QuestionTreeView}. */
export interface QuestionTreeViewProps {
  questions: Question[];
  /** Names of the team's rubrics by id, for questions graded with one. */
  rubricNames?: Map<string, string>;
}

function QuestionItem({ question, path, rubricNames }: { question: Question; path: number[]; rubricNames?: Map<string, string> }) {
  const number = questionNumber(path);
  const subquestions = question.subquestions ?? [];
  const points = savedTotalPoints([question]);
  return (
    <Box
      component="li"
      sx={{
        py: 1.5,
        ...(path.length === 1 ? { '&:not(:first-of-type)': { borderTop: 1, borderColor: 'divider' } } : {}),
      }}
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5 }}>
        <Typography sx={{ fontWeight: 600, minWidth: 20 }}>{number}</Typography>
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'baseline' }}>
            <Typography sx={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{question.questionText}</Typography>
            <Typography variant="body2" color="text.secondary" sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
              {pointsLabel(points)}
            </Typography>
          </Box>
          {question.context && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              <Box component="span" sx={{ fontWeight: 600 }}>
                Context:
              </Box>{' '}
              {question.context}
            </Typography>
          )}
          {question.rubricId && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              <Box component="span" sx={{ fontWeight: 600 }}>
                Rubric:
              </Box>{' '}
              {rubricNames?.get(question.rubricId) ?? 'A saved rubric'}
            </Typography>
          )}
          {question.criteria.length > 0 && (
            <Box component="ul" aria-label={`Criteria of question ${number}`} sx={{ listStyle: 'none', m: 0, mt: 1, p: 0 }}>
              {question.criteria.map((c, i) => (
                <Box
                  component="li"
                  key={i}
                  sx={{
                    display: 'flex',
                    gap: 2,
                    justifyContent: 'space-between',
                    py: 0.5,
                    px: 1.25,
                    borderRadius: '6px',
                    '&:nth-of-type(odd)': { bgcolor: 'rgba(0, 0, 0, 0.03)' },
                  }}
                >
                  <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    {c.description}
                  </Typography>
                  <Typography variant="body2" sx={{ fontWeight: 600, flexShrink: 0, whiteSpace: 'nowrap' }}>
                    {formatPoints(Number(c.points) || 0)} pt{Number(c.points) === 1 ? '' : 's'}
                  </Typography>
                </Box>
              ))}
            </Box>
          )}
          {subquestions.length > 0 && (
            <Box
              component="ol"
              sx={{ listStyle: 'none', m: 0, mt: 1, p: 0, pl: { xs: 1.5, sm: 2 }, borderLeft: 3, borderColor: 'divider' }}
            >
              {subquestions.map((sub, k) => (
                <QuestionItem key={k} question={sub} path={[...path, k]} rubricNames={rubricNames} />
              ))}
            </Box>
          )}
        </Box>
      </Box>
    </Box>
  );
}

/** A grade assignment's questions, read-only: numbers, text, context, criteria with points, and the total. */
export function QuestionTreeView({ questions, rubricNames }: QuestionTreeViewProps) {
  if (questions.length === 0) {
    return <Typography color="text.secondary">No questions.</Typography>;
  }
  return (
    <Box>
      <Box component="ol" aria-label="Questions" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {questions.map((q, i) => (
          <QuestionItem key={i} question={q} path={[i]} rubricNames={rubricNames} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', borderTop: 2, borderColor: 'divider', pt: 1.5, mt: 0.5 }}>
        <Typography sx={{ fontWeight: 600 }}>Total: {pointsLabel(savedTotalPoints(questions))}</Typography>
      </Box>
    </Box>
  );
}
