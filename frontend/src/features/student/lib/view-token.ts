/** Where this browser keeps the token that lets it read a submission's result. */
export function viewTokenKey(submissionId: string): string {
  return `markwell.viewToken.${submissionId}`;
}

/** Remembers a submission's view token for this tab (sessionStorage); ignores a full or blocked store. */
export function saveViewToken(submissionId: string, viewToken: string): void {
  try {
    sessionStorage.setItem(viewTokenKey(submissionId), viewToken);
  } catch {
    // Storage can be unavailable (private modes, quotas); the result page then says so.
  }
}

/** The view token this tab holds for a submission, or null. */
export function loadViewToken(submissionId: string): string | null {
  try {
    return sessionStorage.getItem(viewTokenKey(submissionId)) || null;
  } catch {
    return null;
  }
}
