import AddRounded from '@mui/icons-material/AddRounded';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { EmptyState } from '../../../components/EmptyState';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { useCurrentUser } from '../../../lib/current-user';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAssistants } from '../api/list-assistants';
import { canChange } from '../lib/permissions';
import type { Assistant } from '../types';
import { AssistantCard } from './AssistantCard';
import { useAssistantActions } from './use-assistant-actions';

/** One column on phones, two on tablets, three on wide screens. */
const GRID_COLUMNS = { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' };

/** `/assistants`: the team's saved assistants and the teacher's own, as cards. */
export function AssistantsPage() {
  useDocumentTitle('Assistants');
  const assistants = useAssistants();
  const user = useCurrentUser();
  const actions = useAssistantActions();
  const [toDelete, setToDelete] = useState<Assistant | null>(null);

  const confirmDelete = async () => {
    if (!toDelete) return;
    // Close either way: the toast says how it went, and a toast behind an open dialog is hidden
    // from screen readers.
    await actions.destroy(toDelete);
    setToDelete(null);
  };

  return (
    <>
      <PageHeader
        title="Assistants"
        subtitle="Chat helpers with their own instructions and reading. Save the good ones for your team."
        actions={
          <Button component={RouterLink} to="/assistants/new" variant="contained" startIcon={<AddRounded />}>
            New assistant
          </Button>
        }
      />

      {assistants.isPending && <AssistantGridSkeleton />}
      {assistants.isError && (
        <LoadError
          message="We couldn't load your assistants."
          onRetry={() => void assistants.refetch()}
          retrying={assistants.isFetching}
        />
      )}
      {assistants.data && assistants.data.length === 0 && <EmptyAssistants />}
      {assistants.data && assistants.data.length > 0 && (
        <Box
          component="ul"
          aria-label="Assistants"
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gridTemplateColumns: GRID_COLUMNS, gap: 2 }}
        >
          {assistants.data.map((assistant) => (
            <Box component="li" key={assistant._id} sx={{ minWidth: 0 }}>
              <AssistantCard
                assistant={assistant}
                canChange={canChange(assistant, user.data)}
                busy={actions.busyId === assistant._id}
                onToggleSaved={() => void actions.toggleSaved(assistant)}
                onCopy={() => void actions.copy(assistant)}
                onDelete={() => setToDelete(assistant)}
              />
            </Box>
          ))}
        </Box>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title={`Delete “${toDelete?.title ?? ''}”?`}
        description="The assistant is removed for everyone in your team. Chats already made with it are kept."
        confirmLabel="Delete"
        pending={actions.deleting}
        onConfirm={() => void confirmDelete()}
        onClose={() => setToDelete(null)}
      />
    </>
  );
}

function EmptyAssistants() {
  return (
    <EmptyState icon={<SmartToyOutlined />}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
        No assistants yet
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 460 }}>
        An assistant is a chat helper you set up once — say, a lesson planner that knows your syllabus — and use
        whenever you like. Make your first one, then save it for your team.
      </Typography>
      <Button component={RouterLink} to="/assistants/new" variant="outlined" startIcon={<AddRounded />}>
        Create your first assistant
      </Button>
    </EmptyState>
  );
}

function AssistantGridSkeleton() {
  return (
    <Box
      aria-busy="true"
      aria-label="Loading assistants"
      role="status"
      sx={{ display: 'grid', gridTemplateColumns: GRID_COLUMNS, gap: 2 }}
    >
      {[0, 1, 2].map((i) => (
        <Paper key={i} variant="outlined" sx={{ borderRadius: '12px', p: 2 }}>
          <Box sx={{ display: 'flex', gap: 1.5, mb: 1.5 }}>
            <Skeleton variant="rounded" width={48} height={48} />
            <Box sx={{ flex: 1 }}>
              <Skeleton width="60%" />
              <Skeleton width="30%" />
            </Box>
          </Box>
          <Skeleton />
          <Skeleton />
          <Skeleton width="70%" />
        </Paper>
      ))}
    </Box>
  );
}
