/**
 * Polled reads that cost nothing when nothing changed (docs/api-grading.md, "Polling"). The
 * server answers each read with a version (`data.version`, also its ETag); the next read of the
 * same query sends it back as `If-None-Match` (and as `since` where the route takes it). The
 * server then answers `304` when nothing changed (the previous data is returned as the same
 * object, so nothing re-renders), a delta with only the rows that changed (merged into the
 * previous data here), or the whole answer.
 */
import { NOT_MODIFIED } from './api-client';

/** The answer a versioned read got, and its version. */
interface Held {
  data: unknown;
  version: string;
}

/** Enough for the pages a teacher has open; the oldest is forgotten first. */
const MAX_HELD = 50;

const held = new Map<string, Held>();

/** Forgets every held answer (on sign-out or a change of user: their versions are theirs). */
export function forgetRevalidated(): void {
  held.clear();
}

/** What a versioned fetch returns: an answer with its version, or {@link NOT_MODIFIED}. */
export type Revalidated<Raw> = Raw | typeof NOT_MODIFIED;

/**
 * Runs a polled read for the query `key`. `fetch` is given the version held for the key (or
 * undefined) to send as `If-None-Match` (and `since`); `build` turns its answer into the query's
 * data, given the data held with that version when there is one (to merge a delta into).
 */
export async function revalidatedFetch<Raw extends { version?: unknown }, T>(
  key: readonly unknown[],
  fetch: (version: string | undefined) => Promise<Revalidated<Raw>>,
  build: (answer: Raw, previous: T | undefined) => T,
): Promise<T> {
  const id = JSON.stringify(key);
  const before = held.get(id);
  const answer = await fetch(before?.version);
  if (answer === NOT_MODIFIED) {
    if (before) return remember(id, before) as T;
    // A 304 for a version we no longer hold (forgotten meanwhile): ask for the whole answer.
    return revalidatedFetch(key, () => fetch(undefined), build);
  }
  const data = build(answer, before?.data as T | undefined);
  if (typeof answer?.version === 'string' && answer.version !== '') remember(id, { data, version: answer.version });
  else held.delete(id);
  return data;
}

function remember(id: string, entry: Held): unknown {
  held.delete(id);
  held.set(id, entry);
  if (held.size > MAX_HELD) {
    const oldest = held.keys().next().value;
    if (oldest !== undefined) held.delete(oldest);
  }
  return entry.data;
}

/** The request headers of a read holding `version`. */
export function ifNoneMatch(version: string | undefined): Record<string, string> {
  return version ? { 'If-None-Match': `"${version}"` } : {};
}

/**
 * A delta's rows merged into the previous rows: each changed row replaces the one with its
 * `_id`, new rows are appended in the order sent (created order), deleted ids are dropped.
 * Returns `previous` itself when nothing in it changed.
 */
export function mergeRows<R>(previous: readonly R[], changed: readonly R[], deletedIds: readonly string[]): R[] {
  if (changed.length === 0 && deletedIds.length === 0) return previous as R[];
  const idOf = (row: R) => (row as { _id?: unknown } | null)?._id;
  const gone = new Set<unknown>(deletedIds);
  const byId = new Map<unknown, R>();
  for (const row of changed) byId.set(idOf(row), row);
  const out: R[] = [];
  let touched = false;
  for (const row of previous) {
    const id = idOf(row);
    if (gone.has(id)) {
      touched = true;
      continue;
    }
    const next = byId.get(id);
    if (next !== undefined) {
      byId.delete(id);
      touched = true;
      out.push(next);
    } else out.push(row);
  }
  for (const row of changed) {
    const id = idOf(row);
    if (byId.has(id) && !gone.has(id)) {
      byId.delete(id);
      touched = true;
      out.push(row);
    }
  }
  return touched ? out : (previous as R[]);
}
