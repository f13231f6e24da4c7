/**
 * The id of the result that belongs to `submissionId` among an assignment's function results
 * (the spec names the link `submission`; `submissionId` is read too), or null when it has none.
 */
export function resultIdFor(functionResults: readonly unknown[], submissionId: string): string | null {
  for (const fr of functionResults) {
    if (typeof fr !== 'object' || fr === null) continue;
    const { _id, submission, submissionId: sid } = fr as Record<string, unknown>;
    const linked = typeof submission === 'object' && submission !== null ? (submission as Record<string, unknown>)._id : submission;
    if ((linked === submissionId || sid === submissionId) && typeof _id === 'string') return _id;
  }
  return null;
}
