/**
 * Full-page navigation, behind an object so tests can replace it (jsdom does not let tests
 * redefine `window.location.assign`).
 */
export const browserLocation = {
  /** Loads `url` in this tab, leaving the single-page app (sign-in and sign-out use it). */
  assign(url: string): void {
    window.location.assign(url);
  },
};
