import { formatDate } from '../../lib/format-date';

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "5 minutes ago", "yesterday", or a date for anything older than a week. */
export function formatRelative(timestamp: string | undefined, now = Date.now()): string {
  if (!timestamp) return '';
  const time = new Date(timestamp).getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return RELATIVE.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return RELATIVE.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return RELATIVE.format(Math.round(seconds / 86_400), 'day');
  return formatDate(timestamp);
}

/** "1 assignment", "3 assignments" (and the like for other nouns). */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
