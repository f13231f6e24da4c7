/** Cache keys of the library feature. */
export const libraryKeys = {
  /** Folders, assignments and rubrics. */
  library: ['library'] as const,
  /** Share notifications of the signed-in teacher. */
  notifications: ['notifications'] as const,
};

/** The rubric screens' cache key (features/rubrics): refreshed when a rubric is deleted or copied. */
export const RUBRICS_QUERY_KEY = ['rubrics'] as const;

/** The current user's cache key, shared app-wide; its team summary lists folders and items. */
export const CURRENT_USER_QUERY_KEY = ['user'] as const;
