import CheckCircleOutlineRounded from '@mui/icons-material/CheckCircleOutlineRounded';
import ErrorOutlineRounded from '@mui/icons-material/ErrorOutlineRounded';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Alert from '@mui/material/Alert';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  isToastType,
  TOAST_DURATION_MS,
  TOAST_EVENT,
  ToastContext,
  type ToastApi,
  type ToastOptions,
  type ToastState,
} from './toast-context';

// Each icon has an accessible name so assistive technology announces the kind of toast.
const ICONS = {
  success: <CheckCircleOutlineRounded titleAccess="Success" fontSize="inherit" />,
  error: <ErrorOutlineRounded titleAccess="Error" fontSize="inherit" />,
  warning: <WarningAmberRounded titleAccess="Warning" fontSize="inherit" />,
};

const HIDDEN: ToastState = { show: false, type: 'success', message: '', duration: TOAST_DURATION_MS };

/**
 * Holds the global toast and renders it at the bottom centre: a type icon, the message and a
 * close button, hidden automatically after its duration. Also shows toasts dispatched on
 * `window` as {@link TOAST_EVENT} CustomEvents (used by the browser test suite).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState>(HIDDEN);
  // A fresh key per toast restarts the auto-hide timer when one toast replaces another.
  const [key, setKey] = useState(0);

  const showToast = useCallback(({ type, message, duration = TOAST_DURATION_MS }: ToastOptions) => {
    setToast({ show: true, type, message, duration });
    setKey((k) => k + 1);
  }, []);

  const hide = useCallback((_event?: unknown, reason?: SnackbarCloseReason) => {
    if (reason === 'clickaway') return;
    setToast((t) => ({ ...t, show: false }));
  }, []);

  useEffect(() => {
    function onToastEvent(event: Event) {
      const detail: unknown = (event as CustomEvent<unknown>).detail;
      if (typeof detail !== 'object' || detail === null) return;
      const { type, message, duration } = detail as Record<string, unknown>;
      if (!isToastType(type) || typeof message !== 'string' || message === '') return;
      showToast({ type, message, duration: typeof duration === 'number' ? duration : undefined });
    }
    window.addEventListener(TOAST_EVENT, onToastEvent);
    return () => window.removeEventListener(TOAST_EVENT, onToastEvent);
  }, [showToast]);

  const api = useMemo<ToastApi>(() => ({ showToast }), [showToast]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <Snackbar
        key={key}
        open={toast.show}
        autoHideDuration={toast.duration}
        onClose={hide}
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
          onClose={() => hide()}
          sx={{ width: '100%', maxWidth: 440, alignItems: 'center', boxShadow: 6 }}
        >
          {toast.message}
        </Alert>
      </Snackbar>
    </ToastContext.Provider>
  );
}
