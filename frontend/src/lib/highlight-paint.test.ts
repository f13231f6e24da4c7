import * as muiColors from '@mui/material/colors';
import { purple, red } from '@mui/material/colors';
import { describe, expect, it } from 'vitest';
import { contrastRatio, HIGHLIGHT_HUES, highlightPaint, MIN_CONTRAST } from './highlight-paint';

/** The hues the feedback wizard offers (and the server accepts), as of the authoring API. */
const WIZARD_HUES = [
  'red', 'pink', 'purple', 'deepPurple', 'indigo', 'blue', 'lightBlue', 'cyan', 'teal', 'green',
  'lightGreen', 'lime', 'yellow', 'amber', 'orange', 'deepOrange', 'brown', 'grey', 'blueGrey',
];

describe('highlight colours', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    expect(contrastRatio(purple[300], purple[900])).toBeCloseTo(3.33, 2);
  });

  it('knows every hue the wizard offers, and every other MUI hue', () => {
    for (const hue of WIZARD_HUES) expect(HIGHLIGHT_HUES).toContain(hue);
    const muiHues = Object.keys(muiColors).filter((name) => name !== 'common');
    expect([...HIGHLIGHT_HUES].sort()).toEqual(muiHues.sort());
  });

  it.each(HIGHLIGHT_HUES)('%s: shade 300 behind, readable text of the hue at contrast ≥ 4.5', (hue) => {
    const paint = highlightPaint(`${hue}-500`);
    const palette = (muiColors as unknown as Record<string, Record<number, string>>)[hue];
    expect(paint.background).toBe(palette[300]);
    expect(contrastRatio(paint.text, paint.background)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('keeps shade 900 where it is readable, and darkens it only as far as needed where it is not', () => {
    // blue grey 900 on blue grey 300 already reads at 5.08:1.
    expect(highlightPaint('blueGrey-100').text).toBe(muiColors.blueGrey[900]);
    // red 900 on red 300 reads at 2.2:1: darker red, not black.
    const text = highlightPaint('red-500').text;
    expect(text).not.toBe(red[900]);
    expect(text).not.toBe('#000000');
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(text.slice(i, i + 2), 16));
    expect(r).toBeGreaterThan(g + b);
    expect(contrastRatio(text, red[300])).toBeLessThan(5.5);
  });

  it('paints the shade ignored and unknown hues grey', () => {
    expect(highlightPaint('purple-100')).toEqual(highlightPaint('purple-900'));
    expect(highlightPaint('mauve-500').background).toBe(muiColors.grey[300]);
  });
});
