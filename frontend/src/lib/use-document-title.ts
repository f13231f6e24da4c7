import { useEffect } from 'react';

/** Product name shown in every browser tab. */
export const APP_NAME = 'Markwell';

/** Sets document.title to "`title` · Markwell" (or just "Markwell") while the page is shown. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
