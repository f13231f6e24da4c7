import { purple, red } from '@mui/material/colors';
import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../../../lib/highlight-paint';
import { formatColor, highlightColors, HUES, nextHighlighterColor, parseColor } from './colors';

describe('highlighter colours', () => {
  it('offers the 19 hues of the contract', () => {
    expect(HUES).toHaveLength(19);
  });

  it('paints a highlight with shade 300 behind, whatever its shade, and readable text', () => {
    expect(highlightColors('purple-500').background).toBe(purple[300]);
    expect(highlightColors('red-100').background).toBe(red[300]);
    // Shade 900 on 300 is 3.3:1 for purple: the text is darkened to reach WCAG AA.
    expect(contrastRatio(purple[900], purple[300])).toBeLessThan(4.5);
    expect(highlightColors('purple-500').text).not.toBe(purple[900]);
  });

  it("keeps every hue's highlight text at WCAG AA contrast (4.5:1) on its background", () => {
    for (const hue of HUES) {
      const { background, text } = highlightColors(formatColor(hue, 500));
      expect(contrastRatio(text, background), hue).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('parses hue-shade colours and falls back to grey-500', () => {
    expect(parseColor('deepPurple-700')).toEqual({ hue: 'deepPurple', shade: 700 });
    expect(parseColor('mauve-1000')).toEqual({ hue: 'grey', shade: 500 });
  });

  it('gives a new highlighter a hue no other uses', () => {
    expect(nextHighlighterColor(['purple-500'])).toBe('blue-500');
    expect(nextHighlighterColor(['purple-500', 'blue-300'])).toBe('green-500');
  });
});
