import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageSpinner } from '../../../components/PageSpinner';
import { errorMessage } from '../../../lib/api-client';
import { assignmentTypeLabel } from '../../../lib/assignment-type';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { getDeepLink, getTeamAssignments, pickForPlatform } from '../api/lti';

/** `/lti/deep-link/:id`: a teacher adding Markwell to a course picks the assignment the LMS links to. */
export function DeepLinkPage() {
  const { id = '' } = useParams();
  useDocumentTitle('Add a Markwell assignment to your course');
  const request = useQuery({ queryKey: ['lti', 'deep-link', id], queryFn: () => getDeepLink(id), retry: false });
  const assignments = useQuery({ queryKey: ['lti', 'assignments'], queryFn: getTeamAssignments });
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string>();

  if (request.isPending || assignments.isPending) return <PageSpinner label="Loading" />;
  if (request.isError) {
    return <Alert severity="warning">This request from your course has expired or was already answered. Add Markwell from your course again.</Alert>;
  }
  const pick = async (assignmentId: string) => {
    setSending(true);
    setError(undefined);
    try {
      await pickForPlatform(id, assignmentId);
    } catch (e) {
      setError(errorMessage(e, 'The link could not be made. Please try again.'));
      setSending(false);
    }
  };
  const list = assignments.data ?? [];
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem' }}>
        Add an assignment to {request.data.platform}
      </Typography>
      <Typography color="text.secondary">
        Pupils open the assignment you pick from the course{request.data.lineItem ? ', and their released scores go to its gradebook' : ''}.
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {list.length === 0 ? (
        <Alert severity="info">Your team has no assignments yet.</Alert>
      ) : (
        <Paper variant="outlined">
          <Typography id="lti-pick-label" sx={{ px: 2, pt: 1.5, pb: 0.5, fontWeight: 600 }}>
            Choose the assignment to add
          </Typography>
          <List aria-labelledby="lti-pick-label" disablePadding>
            {list.map((a, i) => (
              <ListItem key={a._id} disablePadding divider={i < list.length - 1}>
                <ListItemButton disabled={sending} onClick={() => void pick(a._id)}>
                  <ListItemText primary={a.name} secondary={a.type ? assignmentTypeLabel(a.type) : undefined} />
                  <Typography component="span" color="primary" sx={{ fontWeight: 600, whiteSpace: 'nowrap', ml: 2 }} aria-hidden>
                    Add to course
                  </Typography>
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
      <div>
        <Button component={RouterLink} to="/library" variant="outlined">
          Create an assignment in the library (then add it from the course again)
        </Button>
      </div>
    </Stack>
  );
}
