import { Outlet } from 'react-router';
import { ToastProvider } from '../../components/toast';

/** The one wrapper around every page: it owns the global toast. */
export function RootLayout() {
  return (
    <ToastProvider>
      <Outlet />
    </ToastProvider>
  );
}
