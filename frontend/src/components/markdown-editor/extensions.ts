import type { MarkdownToken } from '@tiptap/core';
import { Markdown } from '@tiptap/markdown';
import { Table, TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';
import { Marked, type marked } from 'marked';

/**
 * The Markdown parser the editor reads with: `marked` with HTML switched off. Its block `html`
 * and inline `tag` rules never match, so `<img src=x onerror=…>` or `<script>` written in the
 * markdown (by the model, a student or a teacher) is read as plain text: the editor never builds
 * an element from it, and writes it back escaped (`&lt;img …&gt;`).
 */
export function safeMarked(): typeof marked {
  const m = new Marked();
  m.use({ tokenizer: { html: () => undefined, tag: () => undefined } });
  // @tiptap/markdown types its option as the `marked` singleton; a Marked instance has the same
  // members it uses (Lexer, defaults, use, setOptions).
  return m as unknown as typeof marked;
}

/** A line-break tag as the table writer puts it in a cell (`<br>`), or as `<br/>`, `<br />`. */
const CELL_BREAK = /(<br[ \t]*\/?>)/i;

/**
 * A table cell's inline tokens with each line-break tag in its text as a hard break (a `br` token).
 * A cell must stay on one line, so the editor writes a line break inside it as `<br>`; with HTML
 * switched off (see {@link safeMarked}) that tag would come back as the text "<br>" and be saved as
 * `&lt;br&gt;`. Only those exact tags in plain text turn into breaks: a `<br>` the teacher typed is
 * written `&lt;br&gt;`, one in code or after a backslash is another token, and every other tag
 * stays text.
 */
export function cellBreaks(tokens: MarkdownToken[]): MarkdownToken[] {
  return tokens.flatMap((token): MarkdownToken[] => {
    if (token.type === 'text' && !token.tokens && typeof token.text === 'string' && CELL_BREAK.test(token.text)) {
      // split with a group: text, tag, text, tag, …, text.
      return token.text
        .split(CELL_BREAK)
        .map((part, i): MarkdownToken => (i % 2 ? { type: 'br', raw: part } : { type: 'text', raw: part, text: part }))
        .filter((t) => t.raw !== '');
    }
    // Bold, italic, struck-through or linked text in a cell: its text is in its children.
    if (token.type !== 'codespan' && Array.isArray(token.tokens)) return [{ ...token, tokens: cellBreaks(token.tokens) }];
    return [token];
  });
}

/** A table whose cells read the `<br>` the table writer puts in them as line breaks. */
const EditorTable = Table.extend({
  parseMarkdown(token, helpers) {
    const cell = (c: MarkdownToken) => ({ ...c, tokens: cellBreaks(c.tokens ?? []) });
    const read = {
      ...token,
      header: Array.isArray(token.header) ? token.header.map(cell) : token.header,
      rows: Array.isArray(token.rows) ? token.rows.map((row: MarkdownToken[]) => row.map(cell)) : token.rows,
    };
    return this.parent!(read, helpers);
  },
});

/**
 * The editor's extensions: headings, lists, bold, italic, links, quotes, code and GFM tables,
 * read from and written back to Markdown. A link is never followed while editing, and Tiptap's
 * link check refuses `javascript:` addresses.
 */
export function editorExtensions() {
  return [
    StarterKit.configure({
      link: { openOnClick: false },
      // Underline has no Markdown: it would be lost on the way back.
      underline: false,
      // An empty paragraph added after a last heading or table would change the Markdown as soon
      // as the editor opens, before the teacher changed anything.
      trailingNode: false,
    }),
    // Resizable tables are drawn by a node view that sizes columns through the CSSOM: the static
    // rendering writes style attributes, which the nonce-only CSP refuses.
    EditorTable.configure({ resizable: true }),
    TableKit.configure({ table: false }),
    Markdown.configure({ marked: safeMarked(), indentation: { style: 'space', size: 2 } }),
  ];
}
