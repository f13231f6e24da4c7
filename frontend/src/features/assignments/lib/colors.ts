import {
  amber,
  blue,
  blueGrey,
  brown,
  cyan,
  deepOrange,
  deepPurple,
  green,
  grey,
  indigo,
  lightBlue,
  lightGreen,
  lime,
  orange,
  pink,
  purple,
  red,
  teal,
  yellow,
} from '@mui/material/colors';
import { highlightPaint } from '../../../lib/highlight-paint';

/** Hues a highlighter can take, in the order the colour picker shows them. */
export const HUES = [
  'red',
  'pink',
  'purple',
  'deepPurple',
  'indigo',
  'blue',
  'lightBlue',
  'cyan',
  'teal',
  'green',
  'lightGreen',
  'lime',
  'yellow',
  'amber',
  'orange',
  'deepOrange',
  'brown',
  'grey',
  'blueGrey',
] as const;

/** A highlighter hue. */
export type Hue = (typeof HUES)[number];

/** Shades the colour picker offers. */
export const SHADES = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;

/** A shade of a hue. */
export type Shade = (typeof SHADES)[number];

const PALETTES: Record<Hue, Record<Shade, string>> = {
  red,
  pink,
  purple,
  deepPurple,
  indigo,
  blue,
  lightBlue,
  cyan,
  teal,
  green,
  lightGreen,
  lime,
  yellow,
  amber,
  orange,
  deepOrange,
  brown,
  grey,
  blueGrey,
};

/** Human names of the hues, for tooltips. */
const HUE_NAMES: Record<Hue, string> = {
  red: 'Red',
  pink: 'Pink',
  purple: 'Purple',
  deepPurple: 'Deep purple',
  indigo: 'Indigo',
  blue: 'Blue',
  lightBlue: 'Light blue',
  cyan: 'Cyan',
  teal: 'Teal',
  green: 'Green',
  lightGreen: 'Light green',
  lime: 'Lime',
  yellow: 'Yellow',
  amber: 'Amber',
  orange: 'Orange',
  deepOrange: 'Deep orange',
  brown: 'Brown',
  grey: 'Grey',
  blueGrey: 'Blue grey',
};

/** A parsed highlighter colour. */
export interface HueShade {
  hue: Hue;
  shade: Shade;
}

function isHue(value: string): value is Hue {
  return (HUES as readonly string[]).includes(value);
}

/** Parses `purple-500` into its hue and shade; unknown colours fall back to grey-500. */
export function parseColor(color: string): HueShade {
  const [hue = '', shade = ''] = color.split('-');
  const shadeNumber = Number(shade);
  return {
    hue: isHue(hue) ? hue : 'grey',
    shade: (SHADES as readonly number[]).includes(shadeNumber) ? (shadeNumber as Shade) : 500,
  };
}

/** Formats a hue and shade as a highlighter colour, e.g. `purple-500`. */
export function formatColor(hue: Hue, shade: Shade): string {
  return `${hue}-${shade}`;
}

/** The CSS colour of a hue at a shade. */
export function colorValue(hue: Hue, shade: Shade): string {
  return PALETTES[hue][shade];
}

/** A hue's human name, e.g. "Deep purple". */
export function hueName(hue: Hue): string {
  return HUE_NAMES[hue];
}

/**
 * A colour in plain words, as a teacher would say it: "Purple" for purple-500, "Light teal" for
 * teal-300, "Very dark blue" for blue-900 (never the stored `purple-500`).
 */
export function colorName(color: string): string {
  const { hue, shade } = parseColor(color);
  const name = hueName(hue);
  const prefix = shade <= 200 ? 'Very light' : shade <= 400 ? 'Light' : shade === 500 ? '' : shade <= 700 ? 'Dark' : 'Very dark';
  return prefix ? `${prefix} ${name.toLowerCase()}` : name;
}

/**
 * How a highlight is painted (spec §9): shade 300 of its hue behind, shade 900 for the text,
 * darkened where needed to reach WCAG AA contrast — the same paint as on the review screen.
 */
export function highlightColors(color: string): { background: string; text: string } {
  const { hue } = parseColor(color);
  return highlightPaint(`${hue}-300`);
}

/** Hues offered, in order, to each new highlighter, so neighbours differ. */
const NEW_HIGHLIGHTER_HUES: Hue[] = [
  'blue',
  'green',
  'orange',
  'pink',
  'teal',
  'amber',
  'red',
  'indigo',
  'lime',
  'brown',
  'cyan',
  'deepOrange',
  'lightBlue',
  'deepPurple',
  'lightGreen',
  'yellow',
  'blueGrey',
  'grey',
  'purple',
];

/** A colour for a new highlighter: the first hue (at shade 500) no existing highlighter uses. */
export function nextHighlighterColor(used: string[]): string {
  const usedHues = new Set(used.map((color) => parseColor(color).hue));
  const hue = NEW_HIGHLIGHTER_HUES.find((h) => !usedHues.has(h)) ?? NEW_HIGHLIGHTER_HUES[used.length % NEW_HIGHLIGHTER_HUES.length];
  return formatColor(hue, 500);
}
