/** "1 point" / "3 points". */
export function pointsLabel(points: number): string {
  return `${formatPoints(points)} ${points === 1 ? 'point' : 'points'}`;
}

/** A point count without float noise: 0.1 + 0.2 shows as 0.3. */
export function formatPoints(points: number): string {
  return String(Math.round(points * 100) / 100);
}

/** "1 criterion" / "4 criteria". */
export function criteriaLabel(count: number): string {
  return `${count} ${count === 1 ? 'criterion' : 'criteria'}`;
}
