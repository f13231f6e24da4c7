import { screen, waitFor, within } from '@testing-library/react';
import { Editor } from '@tiptap/core';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/test-utils';
import { stubLayoutForProseMirror } from '../testing/prosemirror';
import { MarkdownEditor } from './MarkdownEditor';
import { editorExtensions } from './markdown-editor/extensions';

stubLayoutForProseMirror();

/** Reads `markdown` into the editor's document and writes it back, as the editor does. */
function roundTrip(markdown: string): { markdown: string; html: string } {
  const editor = new Editor({ extensions: editorExtensions(), content: markdown, contentType: 'markdown', injectCSS: false });
  try {
    return { markdown: editor.getMarkdown(), html: editor.getHTML() };
  } finally {
    editor.destroy();
  }
}

const lesson = [
  '# Volcanoes',
  '',
  'Students **explain** how *magma* rises.',
  '',
  '- Warm-up',
  '- Model eruption',
  '',
  '1. Read',
  '2. Write',
  '',
  '| Time | Activity |',
  '| --- | --- |',
  '| 10 min | Starter |',
  '',
  '> Safety first.',
].join('\n');

describe('MarkdownEditor', { timeout: 60_000 }, () => {
  it('shows Markdown as formatted text, not as symbols', async () => {
    renderWithProviders(<MarkdownEditor label="Edit the document" value={lesson} onChange={() => {}} />);
    const box = await screen.findByRole('textbox', { name: 'Edit the document' });
    expect(within(box).getByRole('heading', { name: 'Volcanoes' })).toBeInTheDocument();
    expect(box.querySelector('strong')).toHaveTextContent('explain');
    expect(box.querySelector('em')).toHaveTextContent('magma');
    expect(within(box).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Warm-up', 'Model eruption', 'Read', 'Write']);
    expect(within(box).getByRole('table')).toHaveTextContent('10 min');
    expect(box).not.toHaveTextContent('**');
    expect(screen.getByRole('toolbar', { name: 'Edit the document: formatting' })).toBeInTheDocument();
  });

  it('writes the same Markdown back: headings, emphasis, lists, tables and quotes survive', () => {
    const once = roundTrip(lesson).markdown;
    for (const part of ['# Volcanoes', '**explain**', '*magma*', '- Warm-up', '1. Read', '2. Write', '> Safety first.']) {
      expect(once).toContain(part);
    }
    expect(once).toMatch(/\| Time +\| Activity +\|/);
    expect(once).toMatch(/\| 10 min +\| Starter +\|/);
    expect(roundTrip(once).markdown).toBe(once);
  });

  it('never builds an element from HTML in the Markdown: it stays text', async () => {
    const hostile = 'Intro\n\n<img src=x onerror="window.__mwXss=1">\n\nAnd <b>bold</b> <script>window.__mwXss=2</script> here.';
    const { markdown, html } = roundTrip(hostile);
    expect(html).not.toMatch(/<img|<script|<b>/);
    expect(html).toContain('&lt;img src=x onerror=');
    expect(markdown).toContain('&lt;img src=x onerror=');
    expect(markdown).toContain('&lt;script&gt;');
    expect(roundTrip(markdown).markdown).toBe(markdown);

    renderWithProviders(<MarkdownEditor label="Feedback" value={hostile} onChange={() => {}} />);
    const box = await screen.findByRole('textbox', { name: 'Feedback' });
    expect(box).toHaveTextContent('<img src=x onerror="window.__mwXss=1">');
    expect(box.querySelector('img, script, b')).toBeNull();
    expect((window as { __mwXss?: number }).__mwXss).toBeUndefined();
  });

  it('keeps a line break in a table cell through save, reload and save; other tags in a cell stay text', () => {
    // The document as the teacher left it: Shift+Enter inside a cell, once in bold.
    const editor = new Editor({
      extensions: editorExtensions(),
      content: '<table><tr><th><p>Step</p></th><th><p>Note</p></th></tr><tr><td><p>one<br>two</p></td><td><p><strong>a<br>b</strong> &lt;br&gt; &lt;b&gt;x&lt;/b&gt;</p></td></tr></table>',
      injectCSS: false,
    });
    const saved = editor.getMarkdown();
    editor.destroy();
    expect(saved).toMatch(/\| one<br>two +\| \*\*a\*\*<br>\*\*b\*\* &lt;br&gt; &lt;b&gt;x&lt;\/b&gt; +\|/);

    const reloaded = roundTrip(saved);
    expect(reloaded.html).toContain('<td><p>one<br>two</p></td>');
    expect(reloaded.html).toContain('<strong>a</strong><br><strong>b</strong> &lt;br&gt; &lt;b&gt;x&lt;/b&gt;');
    expect(reloaded.markdown).toBe(saved);
    expect(reloaded.markdown).not.toContain('&lt;br&gt;two');

    // The other spellings of the tag are breaks too, in bold as well; in code, after a backslash or
    // outside a table a tag stays text.
    const other = roundTrip('| a | b |\n| --- | --- |\n| x<br/>y<BR />z **p<br>q** | `c<br>d` \\<br> <i>i</i> |\n\nOutside <br> a table.');
    expect(other.html).toContain('<td><p>x<br>y<br>z <strong>p</strong><br><strong>q</strong></p></td>');
    expect(other.html).toContain('<code>c&lt;br&gt;d</code> &lt;br&gt; &lt;i&gt;i&lt;/i&gt;</p></td>');
    expect(other.html).toContain('<p>Outside &lt;br&gt; a table.</p>');
    expect(other.html).not.toMatch(/<i>/);
    expect(roundTrip(other.markdown).markdown).toBe(other.markdown);
  });

  it('takes a new value from outside and reports none back', async () => {
    const changes: string[] = [];
    function Host() {
      const [value, setValue] = useState('First');
      return (
        <>
          <button type="button" onClick={() => setValue('# Second')}>
            Replace
          </button>
          <MarkdownEditor label="Doc" value={value} onChange={(v) => changes.push(v)} />
        </>
      );
    }
    renderWithProviders(<Host />);
    const box = await screen.findByRole('textbox', { name: 'Doc' });
    expect(box).toHaveTextContent('First');
    screen.getByRole('button', { name: 'Replace' }).click();
    await waitFor(() => expect(within(box).getByRole('heading', { name: 'Second' })).toBeInTheDocument());
    expect(changes).toEqual([]);
  });
});
