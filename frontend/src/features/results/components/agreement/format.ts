/** How agreement figures read on screen. */

/** 0.8 → "80%"; null → "—". */
export function percent(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 100)}%`;
}

/** A signed difference: 0.4 → "+0.4", -1 → "−1", 0 → "0". */
export function signed(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  if (rounded === 0) return '0';
  return rounded > 0 ? `+${rounded}` : `−${Math.abs(rounded)}`;
}

/** What a quadratic weighted kappa means, in Landis and Koch's words. */
export function kappaWords(kappa: number): string {
  if (kappa < 0) return 'poor';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almost perfect';
}
