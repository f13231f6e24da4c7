import * as muiColors from '@mui/material/colors';

/**
 * How highlights are painted. Spec §9: shade 300 of the highlighter's hue behind, shade 900 for
 * the text. For most of MUI's hues that pair falls short of WCAG AA (red 300 on red 900 is 2.2:1,
 * amber 1.98:1), so the text is shade 900 darkened just enough to reach {@link MIN_CONTRAST}
 * against shade 300: the hue stays recognisable and every highlight stays readable.
 */

/** The contrast every highlight's text keeps against its background (WCAG AA, normal text). */
export const MIN_CONTRAST = 4.5;

type Palette = Record<300 | 900, string>;

/** MUI's hue palettes by name (red, deepPurple …): every hue a highlighter colour can name. */
const PALETTES: Record<string, Palette> = Object.fromEntries(
  (Object.entries(muiColors) as [string, unknown][]).filter(
    (entry): entry is [string, Palette] => typeof entry[1] === 'object' && entry[1] !== null && 300 in entry[1] && 900 in entry[1],
  ),
);

/** The hues a highlighter colour can name (`purple` in `purple-500`). */
export const HIGHLIGHT_HUES: readonly string[] = Object.keys(PALETTES);

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace('#', '').slice(0, 6), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `text` darkened (towards black, keeping its hue) until it reaches {@link MIN_CONTRAST} on `background`. */
function readableOn(text: string, background: string): string {
  const rgb = channels(text);
  for (let keep = 1; keep >= 0; keep -= 0.02) {
    const candidate = toHex(rgb.map((v) => v * keep) as [number, number, number]);
    if (contrastRatio(candidate, background) >= MIN_CONTRAST) return candidate;
  }
  return '#000000';
}

/** The colours of a highlight. */
export interface HighlightPaint {
  background: string;
  text: string;
}

const cache = new Map<string, HighlightPaint>();

/**
 * How a highlight of colour `color` (`purple-500`; the shade is ignored) is painted: shade 300 of
 * its hue behind, shade 900 (darkened if needed) for the text. Unknown hues paint grey.
 */
export function highlightPaint(color: string): HighlightPaint {
  const hue = color.split('-')[0] ?? '';
  const palette = PALETTES[hue] ?? PALETTES.grey;
  const key = palette[300];
  let paint = cache.get(key);
  if (!paint) {
    paint = { background: palette[300], text: readableOn(palette[900], palette[300]) };
    cache.set(key, paint);
  }
  return paint;
}

/** Colours given, in order, to highlight keys the assignment does not define (e.g. rubric highlights). */
const FALLBACK_HUES = ['amber', 'lightBlue', 'pink', 'lightGreen', 'deepOrange', 'cyan', 'lime', 'indigo'];

/** A colour for the `index`-th highlight key the assignment does not define. */
export function fallbackColor(index: number): string {
  return `${FALLBACK_HUES[index % FALLBACK_HUES.length]}-300`;
}
