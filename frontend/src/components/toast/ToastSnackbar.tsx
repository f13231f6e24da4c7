import CheckCircleOutlineRounded from '@mui/icons-material/CheckCircleOutlineRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Alert from '@mui/material/Alert';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import type { ToastState } from './toast-context';

// Each icon has an accessible name so assistive technology announces the kind of toast.
const ICONS = {
  success: <CheckCircleOutlineRounded titleAccess="Success" fontSize="inherit" />,
  error: <ErrorOutlineRounded titleAccess="Error" fontSize="inherit" />,
  warning: <WarningAmberRounded titleAccess="Warning" fontSize="inherit" />,
};

/** The toast of {@link ToastProvider}: loaded from its own chunk with the first toast. */
export function ToastSnackbar({ toast, onClose }: { toast: ToastState; onClose: (event?: unknown, reason?: SnackbarCloseReason) => void }) {
  return (
    <Snackbar
      open={toast.show}
      autoHideDuration={toast.duration}
      onClose={onClose}
      // Bottom centre, as the product spec says; narrow (440 px) so that it stays clear of the
      // right-hand column where pages put points and totals ("Assignment created" covered the
      // question points), and the page keeps room below its content (AppLayout). A phone's toast
      // spans the width.
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={toast.type}
        variant="filled"
        iconMapping={ICONS}
        onClose={() => onClose()}
        sx={{ width: '100%', maxWidth: 440, alignItems: 'center', boxShadow: 6 }}
      >
        {toast.message}
      </Alert>
    </Snackbar>
  );
}
