import { useNavigate } from 'react-router';
import { useShortcuts } from './use-shortcuts';

/** Where the review keys lead (null: nowhere, the key does nothing). */
export interface ReviewKeyTargets {
  previousPath: string | null;
  nextPath: string | null;
  nextUnreviewedPath: string | null;
  onShowShortcuts: () => void;
}

/**
 * The review screen's keys: `j` next submission, `k` previous, `n` the next not yet reviewed, `?`
 * the sheet of keys. Each move is a router navigation, so the browser's back button returns.
 */
export function useReviewKeys({ previousPath, nextPath, nextUnreviewedPath, onShowShortcuts }: ReviewKeyTargets, enabled = true) {
  const navigate = useNavigate();
  const go = (path: string | null) => (path ? () => void navigate(path) : undefined);
  useShortcuts(
    {
      j: go(nextPath),
      k: go(previousPath),
      n: go(nextUnreviewedPath),
      '?': onShowShortcuts,
    },
    enabled,
  );
}
