import Button from '@mui/material/Button';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CenteredMessage } from './CenteredMessage';

/** Shown when a page throws while rendering or loading; details go to the console only. */
export function RouteErrorPage() {
  useDocumentTitle('Something went wrong');
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <CenteredMessage
      title="Something went wrong"
      description="This page could not be shown. Reloading usually helps; if it keeps happening, tell your team's Markwell administrator."
      action={
        <Button variant="contained" onClick={() => window.location.reload()}>
          Reload page
        </Button>
      }
    />
  );
}
