/** A submission in the order a teacher reviews them, with its result's status. */
export interface ReviewItem {
  submissionId: string;
  status: string;
}

/** Where a submission sits among those reviewed, and where to go from it. */
export interface ReviewPosition {
  /** 0-based; -1 when the submission is not in the list. */
  index: number;
  count: number;
  previous: string | null;
  next: string | null;
  /** The next submission after this one (wrapping round) whose result is not reviewed yet. */
  nextUnreviewed: string | null;
}

/** Where `submissionId` sits among `items` and its neighbours for j, k and n. */
export function reviewPosition(items: readonly ReviewItem[], submissionId: string): ReviewPosition {
  const index = items.findIndex((item) => item.submissionId === submissionId);
  const count = items.length;
  // From the one after this submission round to the one before it (every one when it is not listed).
  const order = index < 0 ? items : [...items.slice(index + 1), ...items.slice(0, index)];
  const nextUnreviewed = order.find((item) => item.status !== 'reviewed')?.submissionId ?? null;
  return {
    index,
    count,
    previous: index > 0 ? items[index - 1].submissionId : null,
    next: index >= 0 && index < count - 1 ? items[index + 1].submissionId : null,
    nextUnreviewed,
  };
}
