/** Cache keys of the assistant screens; this feature owns every assistant query. */
export const assistantKeys = {
  all: ['assistants'] as const,
  list: () => ['assistants', 'list'] as const,
};
