/** Reloads the page, behind an object so tests can replace it (jsdom cannot reload). */
export const pageReload = {
  /** Reloads the current page. */
  reload(): void {
    window.location.reload();
  },
};
