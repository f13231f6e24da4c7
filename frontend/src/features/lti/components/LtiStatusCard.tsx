import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getLtiStatus } from '../api/lti';

const STATE_LABEL = { pending: 'Sending…', sent: 'In the gradebook', failed: 'Not sent', skipped: 'Not sent' } as const;

/**
 * An assignment's LMS side, shown only when an LMS activity opens it: each released pupil's score
 * and whether it reached the gradebook (why not, when it did not), and on request the course roster
 * with who has not submitted yet.
 */
export function LtiStatusCard({ assignmentId }: { assignmentId: string }) {
  const [roster, setRoster] = useState(false);
  const status = useQuery({
    queryKey: ['lti', 'status', assignmentId, roster],
    queryFn: () => getLtiStatus(assignmentId, roster),
    refetchInterval: (q) => (q.state.data?.scores.some((s) => s.state === 'pending' || s.state === 'failed') ? 10_000 : false),
  });
  if (!status.data?.linked) return null;
  const { scores, roster: members, rosterError } = status.data;
  const missing = members?.filter((m) => !m.submitted) ?? [];
  return (
    <Card>
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="h2" sx={{ fontSize: '1.125rem' }}>
            Course gradebook (LTI)
          </Typography>
          {scores.length === 0 ? (
            <Typography color="text.secondary">Scores go to the course gradebook when you release results.</Typography>
          ) : (
            <Stack component="ul" spacing={0.5} sx={{ pl: 2, m: 0 }} aria-label="Scores sent to the course">
              {scores.map((s) => (
                <li key={s.submissionId}>
                  <strong>{s.studentName}</strong> — {STATE_LABEL[s.state]}
                  {s.state === 'sent' || s.state === 'pending' ? ` (${s.score} / ${s.maxScore})` : ''}
                  {s.error ? `: ${s.error}` : ''}
                </li>
              ))}
            </Stack>
          )}
          {members ? (
            <Typography>
              {rosterError ??
                (missing.length === 0
                  ? 'Every pupil of the course has submitted.'
                  : `Not submitted yet: ${missing.map((m) => m.name || m.email).join(', ')}.`)}
            </Typography>
          ) : (
            <div>
              <Button variant="outlined" onClick={() => setRoster(true)}>
                Who has not submitted?
              </Button>
            </div>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
