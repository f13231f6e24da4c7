import { Editor } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import { editorExtensions } from '../../../components/markdown-editor/extensions';
import { parseInline, parseMarkdown } from './markdown';

/** The Markdown the rich editor saves for paragraphs of typed text. */
function saved(...paragraphs: string[]): string {
  const editor = new Editor({
    extensions: editorExtensions(),
    content: { type: 'doc', content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })) },
    injectCSS: false,
  });
  try {
    return editor.getMarkdown();
  } finally {
    editor.destroy();
  }
}

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

  it('shows what the teacher typed in the editor: references and backslash escapes decoded once', () => {
    const typed = 'add a second example & explain it. <script>x</script>';
    const literal = '*not bold* _x_ [a](b) \\ ~ `c` &amp; &lt;b&gt; 5 > 3';
    const markdown = saved(typed, literal);
    expect(markdown).toContain('&amp; explain it. &lt;script&gt;');
    expect(parseMarkdown(markdown)).toEqual([
      { type: 'paragraph', inline: [{ type: 'text', text: typed }] },
      { type: 'paragraph', inline: [{ type: 'text', text: literal }] },
    ]);
  });

  it('decodes references and escapes once, in text, bold, italic, headings and lists, never in code', () => {
    expect(parseInline('&amp;amp; &amp;lt;b&amp;gt; \\&amp; &quot;q&quot; caf&eacute; &#60;i&#x3E; &bogus; a & b C:\\dir')).toEqual([
      { type: 'text', text: '&amp; &lt;b&gt; &amp; "q" café <i> &bogus; a & b C:\\dir' },
    ]);
    expect(parseInline('\\*not em\\* **bold \\*star\\* &amp; more** *it &lt;em&gt;* `a &amp; \\* b` \\`not code\\`')).toEqual([
      { type: 'text', text: '*not em* ' },
      { type: 'strong', text: 'bold *star* & more' },
      { type: 'text', text: ' ' },
      { type: 'em', text: 'it <em>' },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'a &amp; \\* b' },
      { type: 'text', text: ' `not code`' },
    ]);
    expect(parseMarkdown('## Q&amp;A \\#1\n\n# Use C#\n\n- one &lt;b&gt;\n\n&nbsp;\n\n```\n&amp; \\*\n```')).toEqual([
      { type: 'heading', level: 2, inline: [{ type: 'text', text: 'Q&A #1' }] },
      { type: 'heading', level: 1, inline: [{ type: 'text', text: 'Use C#' }] },
      { type: 'list', ordered: false, items: [[{ type: 'text', text: 'one <b>' }]] },
      { type: 'paragraph', inline: [{ type: 'text', text: '\u00a0' }] },
      { type: 'code', text: '&amp; \\*' },
    ]);
  });
});
