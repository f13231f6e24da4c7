const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function parse(timestamp: string | null | undefined): Date | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Invited 14 Mar 2025", or "Invited" for a missing or bad timestamp. */
export function invitedOn(createdAt: string): string {
  const date = parse(createdAt);
  return date ? `Invited ${dateFormat.format(date)}` : 'Invited';
}

/** When a link stops working, with the time ("21 Mar 2025, 09:00"), or '' for a missing or bad timestamp. */
export function expiryOf(expiresAt: string | null | undefined): string {
  const date = parse(expiresAt);
  return date ? dateTimeFormat.format(date) : '';
}
