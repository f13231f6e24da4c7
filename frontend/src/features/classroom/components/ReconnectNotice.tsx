import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { startConnect } from '../lib/connect';

/** Props for {@link ReconnectNotice}. */
export interface ReconnectNoticeProps {
  /** The refused call's error (409): its message says what happened. */
  error: unknown;
  returnTo: string;
}

/**
 * Google refused the teacher's connection (expired, revoked or missing a permission): the
 * server's message and a button to connect again.
 */
export function ReconnectNotice({ error, returnTo }: ReconnectNoticeProps) {
  const [leaving, setLeaving] = useState(false);
  return (
    <Alert
      severity="warning"
      action={
        <Button
          color="inherit"
          size="small"
          loading={leaving}
          onClick={() => {
            setLeaving(true);
            startConnect(returnTo);
          }}
          sx={{ whiteSpace: 'nowrap' }}
        >
          Connect again
        </Button>
      }
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
    >
      {errorMessage(error, 'Please connect Google Classroom again.')}
    </Alert>
  );
}
