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
 * the sheet of keys. Each move replaces the page's history entry, as the header's arrows do: the
 * browser's Back returns to where the review began (the class's table), not through every
 * submission seen on the way.
 */
export function useReviewKeys({ previousPath, nextPath, nextUnreviewedPath, onShowShortcuts }: ReviewKeyTargets, enabled = true) {
  const navigate = useNavigate();
  const go = (path: string | null) => (path ? () => void navigate(path, { replace: true }) : undefined);
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
