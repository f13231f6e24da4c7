/**
 * LTI launch details passed to the submission link as `?lti=<JSON object>`, or undefined when
 * there are none or they are not a JSON object. They are sent with the submission as given.
 */
export function ltiDetailsFrom(search: URLSearchParams): Record<string, unknown> | undefined {
  const raw = search.get('lti');
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Not JSON: ignore it rather than refuse the student's work.
  }
  return undefined;
}
