export { ToastProvider } from './ToastProvider';
export {
  TOAST_DURATION_MS,
  TOAST_EVENT,
  useToast,
  type ToastApi,
  type ToastOptions,
  type ToastState,
  type ToastType,
} from './toast-context';
