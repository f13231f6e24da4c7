import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { useCurrentUser } from '../../../lib/current-user';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAssistants } from '../api/list-assistants';
import { canChange } from '../lib/permissions';
import { AssistantForm } from './AssistantForm';

/** `/assistants/new` and `/assistants/:assistantId/edit`: the editor for a new or a saved assistant. */
export function AssistantEditorPage() {
  const { assistantId } = useParams();
  return assistantId ? <SavedAssistant key={assistantId} assistantId={assistantId} /> : <AssistantForm key="new" />;
}

/** A saved assistant, found in the list (there is no call for one assistant). */
function SavedAssistant({ assistantId }: { assistantId: string }) {
  const assistants = useAssistants();
  const user = useCurrentUser();
  if (assistants.isError) {
    return (
      <LoadError
        message="We couldn't load this assistant."
        onRetry={() => void assistants.refetch()}
        retrying={assistants.isFetching}
      />
    );
  }
  // The owner check needs the user; if that call fails the server still refuses what it must.
  if (assistants.isPending || user.isPending) return <EditorSkeleton />;
  const assistant = assistants.data.find((a) => a._id === assistantId);
  if (!assistant) return <AssistantNotFound />;
  return <AssistantForm assistant={assistant} readOnly={!canChange(assistant, user.data)} />;
}

function AssistantNotFound() {
  useDocumentTitle('Assistant not found');
  return (
    <Paper variant="outlined" sx={{ borderRadius: '12px', px: { xs: 3, sm: 6 }, py: 6, textAlign: 'center' }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 1 }}>
        Assistant not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        It may have been deleted or unsaved, or it belongs to another team.
      </Typography>
      <Button component={RouterLink} to="/assistants" variant="contained">
        Back to assistants
      </Button>
    </Paper>
  );
}

function EditorSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading assistant" role="status" sx={{ maxWidth: 760 }}>
      <Skeleton width={120} sx={{ mb: 1.5 }} />
      <Skeleton variant="text" width={260} height={48} sx={{ mb: 3 }} />
      {[0, 1].map((i) => (
        <Skeleton key={i} variant="rounded" height={200} sx={{ mb: 2, borderRadius: '12px' }} />
      ))}
    </Box>
  );
}
