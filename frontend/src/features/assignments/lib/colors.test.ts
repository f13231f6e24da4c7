import { purple, red } from '@mui/material/colors';
import { describe, expect, it } from 'vitest';
import { highlightColors, HUES, nextHighlighterColor, parseColor } from './colors';

describe('highlighter colours', () => {
  it('offers the 19 hues of the contract', () => {
    expect(HUES).toHaveLength(19);
  });

  it('paints a highlight with shade 300 behind and shade 900 for the text, whatever its shade', () => {
    expect(highlightColors('purple-500')).toEqual({ background: purple[300], text: purple[900] });
    expect(highlightColors('red-100')).toEqual({ background: red[300], text: red[900] });
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
