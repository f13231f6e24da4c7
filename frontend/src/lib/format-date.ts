const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** "3 Mar 2026" in the teacher's locale, or an empty string for a missing or bad timestamp. */
export function formatDate(timestamp: string | undefined): string {
  if (!timestamp) return '';
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : DATE_FORMAT.format(date);
}
