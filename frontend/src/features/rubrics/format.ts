/** "1 criterion", "3 criteria". */
export function criteriaCount(count: number): string {
  return count === 1 ? '1 criterion' : `${count} criteria`;
}
