/**
 * Reads and writes a result's `highlightedText`, mirroring the server's `internal/highlight`:
 *
 * - A tag is exactly `<key comment="…">passage</key>`: a key (a letter, then letters and
 *   digits), one space, `comment="…"`, a non-empty passage, and the closing tag with the same key.
 *   No other attribute, spacing or nesting is a tag.
 * - Outside the tag syntax `&`, `<` and `>` are written `&amp; &lt; &gt;`; in a comment `"` is
 *   written `&quot;` too. Reading unescapes `&amp; &lt; &gt; &quot; &apos; &#39;` once, left to
 *   right; any other `&` is a literal `&`.
 * - Parsing never fails: a `<` that does not start a well-formed tag is text.
 *
 * Every text and comment that comes out is plain text: render it as React text, never as HTML.
 */

/** A run of the text: highlighted by the item with the same `id`, or plain (`key` null, `id` -1). */
export interface HighlightSpan {
  text: string;
  key: string | null;
  id: number;
}

/** One highlight: its id (its position among the highlights, from 0), its key, comment and passage. */
export interface FeedbackItem {
  id: number;
  type: string;
  comment: string;
  text: string;
}

/** A parsed highlightedText: the spans in order (their texts joined give the plain text) and the items. */
export interface ParsedHighlights {
  spans: HighlightSpan[];
  items: FeedbackItem[];
}

const ENTITIES: [string, string][] = [
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&quot;', '"'],
  ['&apos;', "'"],
  ['&#39;', "'"],
];

/** Replaces the encoding's escapes once, left to right; any other `&` stays as it is. */
export function unescapeHighlight(s: string): string {
  if (!s.includes('&')) return s;
  let out = '';
  let i = 0;
  for (;;) {
    const k = s.indexOf('&', i);
    if (k < 0) return out + s.slice(i);
    out += s.slice(i, k);
    const entity = ENTITIES.find(([esc]) => s.startsWith(esc, k));
    out += entity ? entity[1] : '&';
    i = k + (entity ? entity[0].length : 1);
  }
}

/** Escapes student text or a passage: `&`, `<` and `>`. */
export function escapeHighlightText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes a comment: `&`, `<`, `>` and `"`. */
export function escapeHighlightComment(s: string): string {
  return escapeHighlightText(s).replace(/"/g, '&quot;');
}

const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;

/** Reads a tag name (a letter, then letters and digits) at `s[i]`; returns it ('' if none) and the offset after it. */
function readName(s: string, i: number): [string, number] {
  let j = i;
  while (j < s.length) {
    const cp = s.codePointAt(j) as number;
    const ch = String.fromCodePoint(cp);
    if (!LETTER.test(ch) && (j === i || !DIGIT.test(ch))) break;
    j += ch.length;
  }
  return [s.slice(i, j), j];
}

/** True when `key` can be written as a tag name. */
export function isHighlightKey(key: string): boolean {
  const [name, end] = readName(key, 0);
  return name !== '' && end === key.length;
}

interface Tag {
  key: string;
  comment: string;
  text: string;
  end: number;
}

const ATTR = ' comment="';

/** The well-formed tag starting at `s[i] === '<'`, or null when that `<` is text. */
function tagAt(s: string, i: number): Tag | null {
  const [key, afterName] = readName(s, i + 1);
  if (key === '' || !s.startsWith(ATTR, afterName)) return null;
  const commentStart = afterName + ATTR.length;
  const commentEnd = s.indexOf('"', commentStart);
  if (commentEnd < 0) return null;
  const less = s.indexOf('<', commentStart);
  if ((less >= 0 && less < commentEnd) || !s.startsWith('">', commentEnd)) return null;
  const innerStart = commentEnd + 2;
  const innerEnd = s.indexOf('<', innerStart);
  if (innerEnd < 0 || innerEnd === innerStart) return null;
  const closing = `</${key}>`;
  if (!s.startsWith(closing, innerEnd)) return null;
  return {
    key,
    comment: unescapeHighlight(s.slice(commentStart, commentEnd)),
    text: unescapeHighlight(s.slice(innerStart, innerEnd)),
    end: innerEnd + closing.length,
  };
}

/**
 * Turns a highlightedText into spans (in order; adjacent plain text is one span) and its feedback
 * items. Never throws: anything that is not a well-formed tag is read as text.
 */
export function parseHighlights(tagged: string): ParsedHighlights {
  const spans: HighlightSpan[] = [];
  const items: FeedbackItem[] = [];
  const pushText = (raw: string) => {
    if (raw === '') return;
    const text = unescapeHighlight(raw);
    const last = spans[spans.length - 1];
    if (last && last.key === null) last.text += text;
    else spans.push({ text, key: null, id: -1 });
  };
  let textStart = 0;
  let i = 0;
  while (i < tagged.length) {
    const k = tagged.indexOf('<', i);
    if (k < 0) break;
    const tag = tagAt(tagged, k);
    if (!tag) {
      i = k + 1;
      continue;
    }
    pushText(tagged.slice(textStart, k));
    const id = items.length;
    items.push({ id, type: tag.key, comment: tag.comment, text: tag.text });
    spans.push({ text: tag.text, key: tag.key, id });
    i = textStart = tag.end;
  }
  pushText(tagged.slice(textStart));
  return { spans, items };
}

/** The plain text of a highlightedText, without its tags. */
export function plainText(tagged: string): string {
  return parseHighlights(tagged)
    .spans.map((s) => s.text)
    .join('');
}

/**
 * Writes spans back as a highlightedText, each highlight with `comments[id]` ('' when missing).
 * A highlight with an empty passage or a key that cannot be a tag name is written as plain text.
 */
export function serializeHighlights(spans: readonly HighlightSpan[], comments: Readonly<Record<number, string>>): string {
  return spans
    .map((span) => {
      const text = escapeHighlightText(span.text);
      if (span.key === null || span.text === '' || !isHighlightKey(span.key)) return text;
      const comment = escapeHighlightComment(comments[span.id] ?? '');
      return `<${span.key} comment="${comment}">${text}</${span.key}>`;
    })
    .join('');
}

/** The comments of `items` by id, as {@link serializeHighlights} takes them. */
export function commentsOf(items: readonly FeedbackItem[]): Record<number, string> {
  return Object.fromEntries(items.map((item) => [item.id, item.comment]));
}

/** `parsed` written back with highlight `id`'s comment replaced. */
export function withComment(parsed: ParsedHighlights, id: number, comment: string): string {
  return serializeHighlights(parsed.spans, { ...commentsOf(parsed.items), [id]: comment });
}

/** `parsed` written back without highlight `id`: its passage stays, as plain text. */
export function withoutHighlight(parsed: ParsedHighlights, id: number): string {
  const spans = parsed.spans.map((s) => (s.id === id ? { text: s.text, key: null, id: -1 } : s));
  return serializeHighlights(spans, commentsOf(parsed.items));
}

/**
 * Where each highlight starts in the plain text, by id. It names a highlight for as long as the
 * text stays the same: a changed comment or a removed highlight (its words stay) moves no other.
 */
export function highlightStarts(parsed: ParsedHighlights): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const span of parsed.spans) {
    if (span.key !== null) starts[span.id] = at;
    at += span.text.length;
  }
  return starts;
}

/**
 * `tagged` with the comments of the highlights starting at the offsets of `comments` replaced and
 * the highlights starting at `removed` taken off (their words stay, as plain text). An offset
 * where no highlight starts (it was removed meanwhile) changes nothing.
 */
export function editHighlights(tagged: string, comments: ReadonlyMap<number, string>, removed: ReadonlySet<number>): string {
  const parsed = parseHighlights(tagged);
  const starts = highlightStarts(parsed);
  const byStart = new Map(starts.map((at, id) => [at, id]));
  const edited = commentsOf(parsed.items);
  for (const [at, comment] of comments) {
    const id = byStart.get(at);
    if (id !== undefined) edited[id] = comment;
  }
  const spans = parsed.spans.map((s) => (s.key !== null && removed.has(starts[s.id]) ? { text: s.text, key: null, id: -1 } : s));
  return serializeHighlights(spans, edited);
}

/** A highlight a teacher adds: the plain text's characters from `start` to `end`, with `key` and `comment`. */
export interface AddedHighlight {
  start: number;
  end: number;
  key: string;
  comment: string;
}

/**
 * `tagged` with the highlights of `added` put on its plain text (each over words no highlight
 * covers yet), then the comments of `comments` and the removals of `removed` applied as
 * {@link editHighlights} does. An addition that no longer fits (its words are highlighted
 * meanwhile, or the text is shorter) changes nothing.
 */
export function editHighlightsWith(
  tagged: string,
  added: readonly AddedHighlight[],
  comments: ReadonlyMap<number, string>,
  removed: ReadonlySet<number>,
): string {
  let out = tagged;
  for (const add of added) out = withAdded(out, add) ?? out;
  return editHighlights(out, comments, removed);
}

/** `tagged` with `add` highlighted, or null when its words are not all in one plain run. */
function withAdded(tagged: string, add: AddedHighlight): string | null {
  if (add.end <= add.start || !isHighlightKey(add.key)) return null;
  const parsed = parseHighlights(tagged);
  const spans: HighlightSpan[] = [];
  const comments = commentsOf(parsed.items);
  let at = 0;
  let done = false;
  for (const span of parsed.spans) {
    const end = at + span.text.length;
    if (!done && span.key === null && at <= add.start && add.end <= end) {
      const id = parsed.items.length;
      comments[id] = add.comment;
      const before = span.text.slice(0, add.start - at);
      const after = span.text.slice(add.end - at);
      if (before) spans.push({ text: before, key: null, id: -1 });
      spans.push({ text: span.text.slice(add.start - at, add.end - at), key: add.key, id });
      if (after) spans.push({ text: after, key: null, id: -1 });
      done = true;
    } else {
      spans.push(span);
    }
    at = end;
  }
  return done ? serializeHighlights(spans, comments) : null;
}

/** Where a passage a teacher asks to highlight is in the plain text, or why it cannot be. */
export type PassageFound = { start: number; end: number } | { error: string };

/**
 * Finds `passage` (its surrounding spaces left out) in the plain text of `parsed` over words no
 * highlight covers: at `near` when it is there (where the teacher selected it), else its first
 * such occurrence.
 */
export function findPassage(parsed: ParsedHighlights, passage: string, near?: number): PassageFound {
  const lead = passage.length - passage.trimStart().length;
  const words = passage.trim();
  if (words === '') return { error: 'Type or select the words to highlight.' };
  const free: [number, number][] = [];
  let at = 0;
  for (const span of parsed.spans) {
    if (span.key === null) free.push([at, at + span.text.length]);
    at += span.text.length;
  }
  const plain = parsed.spans.map((s) => s.text).join('');
  const fits = (start: number) => free.some(([a, b]) => a <= start && start + words.length <= b);
  if (near !== undefined && plain.startsWith(words, near + lead) && fits(near + lead)) {
    return { start: near + lead, end: near + lead + words.length };
  }
  let seen = false;
  for (let i = plain.indexOf(words); i >= 0; i = plain.indexOf(words, i + 1)) {
    if (fits(i)) return { start: i, end: i + words.length };
    seen = true;
  }
  return seen
    ? { error: 'Those words are already highlighted, in part or in full: delete that highlight first, or choose other words.' }
    : { error: 'Those words are not in the submission’s text: copy them exactly, or select them in the text.' };
}
