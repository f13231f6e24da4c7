/**
 * A small, safe subset of Markdown for AI feedback: headings, paragraphs, bullet and numbered
 * lists, fenced code, **bold**, *italic* and `code`. It produces a tree of plain strings that the
 * UI renders as React text: raw HTML, links and images are never interpreted, so `<img onerror>`
 * in feedback shows as the characters typed.
 */

/** A run of inline text. */
export interface Inline {
  type: 'text' | 'strong' | 'em' | 'code';
  text: string;
}

/** A block of the document. */
export type Block =
  | { type: 'heading'; level: number; inline: Inline[] }
  | { type: 'paragraph'; inline: Inline[] }
  | { type: 'list'; ordered: boolean; items: Inline[][] }
  | { type: 'code'; text: string };

const INLINE = /(`[^`\n]+`|\*\*[^*\n]+\*\*|__[^_\n]+__|\*[^*\s][^*\n]*\*|_[^_\s][^_\n]*_)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s*```/;

/** Splits a line of text into plain, bold, italic and code runs. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  for (const part of text.split(INLINE)) {
    if (part === '') continue;
    if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) out.push({ type: 'code', text: part.slice(1, -1) });
    else if (part.length > 4 && (part.startsWith('**') || part.startsWith('__')) && part.endsWith(part.slice(0, 2)))
      out.push({ type: 'strong', text: part.slice(2, -2) });
    else if (part.length > 2 && (part.startsWith('*') || part.startsWith('_')) && part.endsWith(part[0]) && INLINE.test(part))
      out.push({ type: 'em', text: part.slice(1, -1) });
    else out.push({ type: 'text', text: part });
  }
  return out;
}

/** Parses feedback text into blocks. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', inline: parseInline(paragraph.join('\n')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (FENCE.test(line)) {
      flush();
      const code: string[] = [];
      for (i += 1; i < lines.length && !FENCE.test(lines[i]); i += 1) code.push(lines[i]);
      blocks.push({ type: 'code', text: code.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading[1].length, inline: parseInline(heading[2]) });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1]);
      const last = blocks[blocks.length - 1];
      if (last?.type === 'list' && last.ordered === ordered) last.items.push(parseInline(item[2]));
      else blocks.push({ type: 'list', ordered, items: [parseInline(item[2])] });
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  return blocks;
}
