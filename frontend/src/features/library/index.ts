/**
 * The team library (`/library`) and the notifications bell for the app bar.
 *
 * `usePendingToast` shows a toast stashed before a full page reload (copying a shared item
 * reloads the page); the library page calls it, and the app shell may call it once for every page.
 */
export { LibraryPage } from './components/LibraryPage';
export { NotificationsBell } from './components/NotificationsBell';
export { PENDING_TOAST_KEY, usePendingToast } from './pending-toast';
