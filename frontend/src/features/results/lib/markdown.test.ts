import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('feedback markdown', () => {
  it('reads headings, paragraphs, lists and code', () => {
    expect(parseMarkdown('## Strengths\nClear **thesis** and *good* use of `quotes`.\n\n- one\n- two\n\n1. first\n2) second\n```\n<b>x</b>\n```')).toEqual([
      { type: 'heading', level: 2, inline: [{ type: 'text', text: 'Strengths' }] },
      {
        type: 'paragraph',
        inline: [
          { type: 'text', text: 'Clear ' },
          { type: 'strong', text: 'thesis' },
          { type: 'text', text: ' and ' },
          { type: 'em', text: 'good' },
          { type: 'text', text: ' use of ' },
          { type: 'code', text: 'quotes' },
          { type: 'text', text: '.' },
        ],
      },
      { type: 'list', ordered: false, items: [[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]] },
      { type: 'list', ordered: true, items: [[{ type: 'text', text: 'first' }], [{ type: 'text', text: 'second' }]] },
      { type: 'code', text: '<b>x</b>' },
    ]);
  });

  it('keeps HTML, links and stray markers as text', () => {
    expect(parseInline('<img src=x onerror=alert(1)> [link](javascript:alert(1)) 2 * 3 * 4')).toEqual([
      { type: 'text', text: '<img src=x onerror=alert(1)> [link](javascript:alert(1)) 2 * 3 * 4' },
    ]);
  });

  it('keeps line breaks inside a paragraph', () => {
    expect(parseMarkdown('line one\nline two')).toEqual([{ type: 'paragraph', inline: [{ type: 'text', text: 'line one\nline two' }] }]);
  });
});
