/** Cache keys of the results feature; each key belongs to exactly one call and data shape. */
export const functionResultKeys = {
  /** Every function-result query. */
  all: ['functionResult'] as const,
  /** One submission's result (`db/functionResult/get`). */
  detail: (submissionId: string) => ['functionResult', submissionId] as const,
};
