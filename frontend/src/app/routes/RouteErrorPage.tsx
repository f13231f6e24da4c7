import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router';
import { PageSpinner } from '../../components/PageSpinner';
import { canReloadForChunk, ChunkLoadError, reloadOnceForChunk } from '../../lib/lazy-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CenteredMessage } from './CenteredMessage';

/**
 * Shown when a page throws while rendering or loading; details go to the console only. A page whose
 * code is gone (a deploy replaced the build this tab loaded) reloads once instead, at its address.
 */
export function RouteErrorPage() {
  useDocumentTitle('Something went wrong');
  const error = useRouteError();
  const [reloading] = useState(() => error instanceof ChunkLoadError && canReloadForChunk());
  useEffect(() => {
    if (reloading) reloadOnceForChunk();
    else console.error(error);
  }, [error, reloading]);

  if (reloading) return <PageSpinner fullPage label="Loading" />;

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
