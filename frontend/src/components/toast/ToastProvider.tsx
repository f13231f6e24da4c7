import type { SnackbarCloseReason } from '@mui/material/Snackbar';
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
import { lazyComponent } from '../lazy-component';

// The snackbar (MUI's Snackbar, its transition and click-away listener) is not part of the first
// load: no page needs it to draw (docs/performance.md, "First load"). It downloads once the page is
// idle, so that a toast saying the network has gone can still show.
const ToastSnackbar = lazyComponent(() => import('./ToastSnackbar').then((m) => m.ToastSnackbar), null, { prefetch: true });

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
  const shown = key > 0;

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
      {shown && <ToastSnackbar key={key} toast={toast} onClose={hide} />}
    </ToastContext.Provider>
  );
}
