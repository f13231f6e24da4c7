import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CenteredMessage } from './CenteredMessage';

/** Shown for any address Markwell does not know, with a way back to the library. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <CenteredMessage
      title="Page not found"
      description="We couldn't find the page you were looking for. It may have moved, or the link may be incomplete."
      action={
        <Button component={RouterLink} to="/library" variant="contained">
          Back to library
        </Button>
      }
    />
  );
}
