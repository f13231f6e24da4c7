import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';

/** Props for {@link LoadError}. */
export interface LoadErrorProps {
  message: string;
  onRetry: () => void;
  retrying?: boolean;
}

/** A failed load: what went wrong and a "Try again" button. */
export function LoadError({ message, onRetry, retrying = false }: LoadErrorProps) {
  return (
    <Alert
      severity="error"
      variant="outlined"
      sx={{ bgcolor: 'background.paper', alignItems: 'center' }}
      action={
        <Button color="inherit" size="small" onClick={onRetry} loading={retrying}>
          Try again
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
