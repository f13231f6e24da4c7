import { Markdown } from '@tiptap/markdown';
import { TableKit } from '@tiptap/extension-table';
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
    TableKit.configure({ table: { resizable: true } }),
    Markdown.configure({ marked: safeMarked(), indentation: { style: 'space', size: 2 } }),
  ];
}
