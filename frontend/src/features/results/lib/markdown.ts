import { decodeString } from 'micromark-util-decode-string';

/**
 * A small, safe subset of Markdown for AI feedback: headings, paragraphs, bullet and numbered
 * lists, fenced code, **bold**, *italic* and `code`. It produces a tree of plain strings that the
 * UI renders as React text: raw HTML, links and images are never interpreted, so `<img onerror>`
 * in feedback shows as the characters typed.
 *
 * Feedback the teacher edited is the rich editor's Markdown source: what was typed as `&`, `<`, `>`
 * is there as `&amp;`, `&lt;`, `&gt;`, Markdown punctuation after a backslash (`\*`), an empty
 * paragraph as `&nbsp;`. Outside code, each backslash escape and character reference is decoded
 * exactly once, as CommonMark reads them (`&amp;lt;` is the text `&lt;`), into text, never markup.
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

/**
 * The inline runs, as one capturing group: a backslash escape (of ASCII punctuation, or of the
 * line end: a line break), `code`, **strong**, *emphasis*. An escaped marker is never part of a
 * run's delimiters.
 */
const INLINE = /(\\[!-/:-@[-`{-~\n]|`[^`\n]+`|\*\*(?:\\.|[^*\\\n])+\*\*|__(?:\\.|[^_\\\n])+__|\*(?=[^*\s])(?:\\.|[^*\\\n])+\*|_(?=[^_\s])(?:\\.|[^_\\\n])+_)/;
// A closing run of #s follows a space: "# Use C#" is the text "Use C#".
const HEADING = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s*```/;

/** Splits a line of text into plain, bold, italic and code runs, their text decoded (not code's). */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const push = (type: Inline['type'], value: string) => {
    if (value === '') return;
    const last = out[out.length - 1];
    if (type === 'text' && last?.type === 'text') last.text += value;
    else out.push({ type, text: value });
  };
  // split with one capturing group: text at even indexes, a run at odd ones. decodeString decodes
  // backslash escapes and entity and numeric character references in one pass, as CommonMark does.
  text.split(INLINE).forEach((part, i) => {
    if (i % 2 === 0) push('text', decodeString(part));
    else if (part.startsWith('\\')) push('text', part.slice(1));
    else if (part.startsWith('`')) push('code', part.slice(1, -1));
    else if (part.startsWith('**') || part.startsWith('__')) push('strong', decodeString(part.slice(2, -2)));
    else push('em', decodeString(part.slice(1, -1)));
  });
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
