import { createContext, useContext } from 'react';

/** How long a toast stays up before hiding itself (spec §9). */
export const TOAST_DURATION_MS = 5000;

/** Window event that shows a toast: `new CustomEvent(TOAST_EVENT, { detail: { type, message } })`. */
export const TOAST_EVENT = 'markwell:toast';

/** The kinds of toast, each with its own icon. */
export type ToastType = 'success' | 'error' | 'warning';

/** What a caller asks to show. */
export interface ToastOptions {
  type: ToastType;
  message: string;
  /** Milliseconds before auto-hiding; defaults to {@link TOAST_DURATION_MS}. */
  duration?: number;
}

/** The toast slice of UI state (spec §3): show flag, type, message, duration. */
export interface ToastState {
  show: boolean;
  type: ToastType;
  message: string;
  duration: number;
}

/** What {@link useToast} returns. */
export interface ToastApi {
  /** Shows a toast, replacing any toast already on screen. */
  showToast: (options: ToastOptions) => void;
}

/** Context holding the toast API; provided by ToastProvider. */
export const ToastContext = createContext<ToastApi | null>(null);

/** Returns `showToast` for the global toast. Must be used inside ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast must be used inside <ToastProvider>');
  return api;
}

/** True when `value` is a valid toast type. */
export function isToastType(value: unknown): value is ToastType {
  return value === 'success' || value === 'error' || value === 'warning';
}
