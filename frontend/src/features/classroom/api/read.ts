/** Lenient readers for Classroom payloads: a missing field becomes "" or [] rather than a crash. */

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function objects(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
}

/** Reads `list` as records, each turned into a T by `read`; anything that is not an object is dropped. */
export function readList<T>(list: unknown, read: (raw: Record<string, unknown>) => T): T[] {
  return objects(list).map(read);
}

/** Reads a string field, "" when missing. */
export function readText(raw: Record<string, unknown>, field: string): string {
  return text(raw[field]);
}
