import { useEffect } from 'react';
import { useToast, type ToastType } from '../../components/toast';

/**
 * A toast that must survive a full page reload (copying a shared item reloads the page, spec §4).
 * It is kept in sessionStorage under this key and shown by the next page that calls
 * {@link usePendingToast}.
 */
export const PENDING_TOAST_KEY = 'markwell:pending-toast';

/** Keeps a toast to show after the page reloads. */
export function stashPendingToast(type: ToastType, message: string): void {
  try {
    sessionStorage.setItem(PENDING_TOAST_KEY, JSON.stringify({ type, message }));
  } catch {
    // Storage can be full or blocked; the toast is then simply not shown after the reload.
  }
}

/** Takes the stashed toast, if any, out of storage. */
export function takePendingToast(): { type: ToastType; message: string } | null {
  try {
    const raw = sessionStorage.getItem(PENDING_TOAST_KEY);
    if (raw === null) return null;
    sessionStorage.removeItem(PENDING_TOAST_KEY);
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { type, message } = value as { type?: unknown; message?: unknown };
    if ((type !== 'success' && type !== 'error' && type !== 'warning') || typeof message !== 'string' || !message) return null;
    return { type, message };
  } catch {
    return null;
  }
}

/** Shows the toast stashed before the last reload, once, when the calling component mounts. */
export function usePendingToast(): void {
  const { showToast } = useToast();
  useEffect(() => {
    const toast = takePendingToast();
    if (toast) showToast(toast);
  }, [showToast]);
}
