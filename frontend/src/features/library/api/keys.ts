/** Cache keys of the library feature. */
export const libraryKeys = {
  /** Folders, assignments and rubrics. */
  library: ['library'] as const,
  /** Share notifications of the signed-in teacher. */
  notifications: ['notifications'] as const,
};

/** The rubric screens' cache key (features/rubrics): refreshed when a rubric is deleted or copied. */
export const RUBRICS_QUERY_KEY = ['rubrics'] as const;
