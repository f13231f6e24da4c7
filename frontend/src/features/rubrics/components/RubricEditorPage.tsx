import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRubric } from '../api/get-rubric';
import { RubricEditor } from './RubricEditor';

/** `/rubrics/new` and `/rubrics/:rubricId`: the editor for a new or a saved rubric. */
export function RubricEditorPage() {
  const { rubricId } = useParams();
  // A fresh key per rubric: moving from one rubric to another starts a fresh draft.
  return rubricId ? <SavedRubric key={rubricId} rubricId={rubricId} /> : <RubricEditor key="new" />;
}

function SavedRubric({ rubricId }: { rubricId: string }) {
  const rubric = useRubric(rubricId);
  if (rubric.isError) {
    return rubric.error instanceof ApiError && rubric.error.status === 404 ? (
      <RubricNotFound />
    ) : (
      <LoadError message="We couldn't load this rubric." onRetry={() => void rubric.refetch()} retrying={rubric.isFetching} />
    );
  }
  if (rubric.isPending) return <EditorSkeleton />;
  return <RubricEditor rubric={rubric.data} />;
}

function RubricNotFound() {
  useDocumentTitle('Rubric not found');
  return (
    <Paper variant="outlined" sx={{ borderRadius: '12px', px: { xs: 3, sm: 6 }, py: 6, textAlign: 'center' }}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 1 }}>
        Rubric not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        It may have been deleted, or it belongs to another team.
      </Typography>
      <Button component={RouterLink} to="/rubrics" variant="contained">
        Back to rubrics
      </Button>
    </Paper>
  );
}

function EditorSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading rubric" role="status">
      <Skeleton width={120} sx={{ mb: 1.5 }} />
      <Skeleton variant="text" width={260} height={48} sx={{ mb: 3 }} />
      <Skeleton variant="rounded" height={56} sx={{ maxWidth: 640, mb: 4 }} />
      {[0, 1].map((i) => (
        <Skeleton key={i} variant="rounded" height={170} sx={{ mb: 2, borderRadius: '12px' }} />
      ))}
    </Box>
  );
}
