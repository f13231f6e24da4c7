/**
 * "180 / 200 characters" once `value` is within 20 characters of `max` (a field that cuts at its
 * limit then says why the typing or the paste stopped), otherwise undefined.
 */
export function lengthHint(value: string, max: number): string | undefined {
  return value.length >= max - 20 ? `${value.length} / ${max} characters${value.length >= max ? ' (the most a name can have)' : ''}` : undefined;
}
