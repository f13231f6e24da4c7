import { describe, expect, it } from 'vitest';
import {
  editHighlightsWith,
  findPassage,
  parseHighlights,
  plainText,
  serializeHighlights,
  withComment,
  withoutHighlight,
  type HighlightSpan,
} from './highlights';

const plain = (text: string): HighlightSpan => ({ text, key: null, id: -1 });
const hl = (text: string, key: string, id: number): HighlightSpan => ({ text, key, id });

/**
 * The corpus: the cases of the server's parser (internal/highlight/parse_test.go), which this
 * parser mirrors, plus the round trip of its build test. Same input, same spans and items.
 */
const CORPUS: { name: string; tagged: string; spans: HighlightSpan[]; items: [number, string, string, string][] }[] = [
  { name: 'empty', tagged: '', spans: [], items: [] },
  { name: 'text only', tagged: 'Just words.', spans: [plain('Just words.')], items: [] },
  {
    name: 'highlights with ids in order',
    tagged: '<grammar comment="c1">A</grammar> b <spelling comment="c2">C</spelling><grammar comment="c3">D</grammar>.',
    spans: [hl('A', 'grammar', 0), plain(' b '), hl('C', 'spelling', 1), hl('D', 'grammar', 2), plain('.')],
    items: [
      [0, 'grammar', 'c1', 'A'],
      [1, 'spelling', 'c2', 'C'],
      [2, 'grammar', 'c3', 'D'],
    ],
  },
  {
    name: 'entities are read once; unknown ones and bare & stay',
    tagged: '&amp;lt; &lt;b&gt; &quot;q&quot; &#39;s &apos; &nbsp; & &amp',
    spans: [plain(`&lt; <b> "q" 's ' &nbsp; & &amp`)],
    items: [],
  },
  {
    name: 'comparison signs are text',
    tagged: 'a < b, 3 <4, <3 love, a<-b, x > y',
    spans: [plain('a < b, 3 <4, <3 love, a<-b, x > y')],
    items: [],
  },
  { name: 'unclosed tag is text', tagged: 'x <grammar comment="c">y', spans: [plain('x <grammar comment="c">y')], items: [] },
  {
    name: 'mismatched tag is text',
    tagged: '<grammar comment="c">y</spelling>',
    spans: [plain('<grammar comment="c">y</spelling>')],
    items: [],
  },
  {
    name: 'nested: the outer tag is text, the inner one is read',
    tagged: '<grammar comment="o">a <spelling comment="i">b</spelling> c</grammar>',
    spans: [plain('<grammar comment="o">a '), hl('b', 'spelling', 0), plain(' c</grammar>')],
    items: [[0, 'spelling', 'i', 'b']],
  },
  {
    name: 'unknown shapes are text',
    tagged:
      `<grammar>a</grammar><grammar comment='c'>b</grammar><grammar  comment="c">c</grammar>` +
      `<grammar comment="c" x="y">d</grammar><grammar comment="c">e</grammar ><grammar comment="c"></grammar>` +
      `<b>bold</b><grammar comment="a"b">f</grammar><grammar-x comment="c">g</grammar-x>`,
    spans: [
      plain(
        `<grammar>a</grammar><grammar comment='c'>b</grammar><grammar  comment="c">c</grammar>` +
          `<grammar comment="c" x="y">d</grammar><grammar comment="c">e</grammar ><grammar comment="c"></grammar>` +
          `<b>bold</b><grammar comment="a"b">f</grammar><grammar-x comment="c">g</grammar-x>`,
      ),
    ],
    items: [],
  },
  {
    name: 'a stray closing tag is text',
    tagged: '</grammar>ok <grammar comment="">x</grammar>',
    spans: [plain('</grammar>ok '), hl('x', 'grammar', 0)],
    items: [[0, 'grammar', '', 'x']],
  },
  {
    name: 'unicode keys, comments and text; CRLF kept',
    tagged: 'Ligne\r\n<grammaire comment="accord → pluriel 🙂">les chat</grammaire>\r\n',
    spans: [plain('Ligne\r\n'), hl('les chat', 'grammaire', 0), plain('\r\n')],
    items: [[0, 'grammaire', 'accord → pluriel 🙂', 'les chat']],
  },
  {
    name: 'comment spanning lines, with escapes',
    tagged: '<grammar comment="line 1\nline &quot;2&quot; &lt;3">t</grammar>',
    spans: [hl('t', 'grammar', 0)],
    items: [[0, 'grammar', 'line 1\nline "2" <3', 't']],
  },
  {
    name: "the server's build round trip",
    tagged:
      '<grammar comment="a &quot;b&quot; &lt;c&gt; &amp; d &amp;quot;">x &lt; y</grammar> &amp; "q" &lt;spelling comment="fake"&gt;z&lt;/spelling&gt; <spelling comment="">&amp;amp;</spelling> done',
    spans: [hl('x < y', 'grammar', 0), plain(' & "q" <spelling comment="fake">z</spelling> '), hl('&amp;', 'spelling', 1), plain(' done')],
    items: [
      [0, 'grammar', 'a "b" <c> & d &quot;', 'x < y'],
      [1, 'spelling', '', '&amp;'],
    ],
  },
];

describe('parseHighlights: the corpus shared with the server', () => {
  it.each(CORPUS)('$name', ({ tagged, spans, items }) => {
    const parsed = parseHighlights(tagged);
    expect(parsed.spans).toEqual(spans);
    expect(parsed.items).toEqual(items.map(([id, type, comment, text]) => ({ id, type, comment, text })));
    expect(plainText(tagged)).toBe(spans.map((s) => s.text).join(''));
  });

  it('writes back what it read: exactly what the server wrote, or the same spans for hand-made input', () => {
    const write = (tagged: string) => {
      const parsed = parseHighlights(tagged);
      return serializeHighlights(parsed.spans, Object.fromEntries(parsed.items.map((i) => [i.id, i.comment])));
    };
    for (const { tagged } of CORPUS) expect(parseHighlights(write(tagged))).toEqual(parseHighlights(tagged));
    for (const name of ['highlights with ids in order', "the server's build round trip", 'comment spanning lines, with escapes']) {
      const { tagged } = CORPUS.find((c) => c.name === name)!;
      expect(write(tagged)).toBe(tagged);
    }
  });
});

/** A small seeded random generator (mulberry32), so every run tries the same cases. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces student text, comments and tagged text are made of: the characters the encoding cares about and look-alikes. */
const PIECES = [
  'a', 'Z', ' ', '\n', '\r\n', '<', '>', '&', '"', "'", '/', '=', 'é', '🙂', '日本', 'amp;', '&amp;', '&lt;', '&quot;',
  '&#39;', '<grammar comment="x">', '</grammar>', '<b>', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
  'comment="', '">', 'grammar', '\t',
];
const KEYS = ['grammar', 'spelling', 'idea2', 'grammaire', 'ß'];

function text(next: () => number, max: number): string {
  let s = '';
  const n = Math.floor(next() * max);
  for (let i = 0; i < n; i += 1) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

describe('parseHighlights and serializeHighlights, fuzzed', () => {
  it('round-trips random highlighted texts: same words, same highlights, same comments', () => {
    const next = random(9);
    for (let round = 0; round < 400; round += 1) {
      const spans: HighlightSpan[] = [];
      const comments: Record<number, string> = {};
      let id = 0;
      for (let i = Math.floor(next() * 6); i >= 0; i -= 1) {
        const words = text(next, 6);
        if (next() < 0.5 || words === '') spans.push(plain(words));
        else {
          spans.push(hl(words, KEYS[Math.floor(next() * KEYS.length)], id));
          comments[id] = text(next, 5);
          id += 1;
        }
      }
      const tagged = serializeHighlights(spans, comments);
      const parsed = parseHighlights(tagged);
      expect(parsed.spans.map((s) => s.text).join('')).toBe(spans.map((s) => s.text).join(''));
      const highlights = spans.filter((s) => s.key !== null);
      expect(parsed.items.map((i) => [i.type, i.text, i.comment])).toEqual(highlights.map((s) => [s.key, s.text, comments[s.id]]));
      expect(serializeHighlights(parsed.spans, Object.fromEntries(parsed.items.map((i) => [i.id, i.comment])))).toBe(tagged);
    }
  });

  it('reads any string without failing, and reads its own writing back the same', () => {
    const next = random(42);
    for (let round = 0; round < 400; round += 1) {
      const junk = text(next, 30);
      const parsed = parseHighlights(junk);
      const rewritten = serializeHighlights(parsed.spans, Object.fromEntries(parsed.items.map((i) => [i.id, i.comment])));
      expect(parseHighlights(rewritten)).toEqual(parsed);
    }
  });

  it("keeps a student's own tags as text: no highlight comes out of escaped student text", () => {
    const next = random(7);
    for (let round = 0; round < 300; round += 1) {
      const student = text(next, 20);
      const parsed = parseHighlights(serializeHighlights([plain(student)], {}));
      expect(parsed.items).toEqual([]);
      expect(parsed.spans.map((s) => s.text).join('')).toBe(student);
    }
    const script = parseHighlights('Hello &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(script.spans).toEqual([plain('Hello <script>alert(1)</script>')]);
  });
});

describe('editing highlights', () => {
  const tagged = 'He went to <grammar comment="Use their">there</grammar> house &amp; <spelling comment="x">sat</spelling>.';

  it('changes one comment and keeps everything else', () => {
    const edited = withComment(parseHighlights(tagged), 0, 'Use "their" & not <there>');
    expect(edited).toBe(
      'He went to <grammar comment="Use &quot;their&quot; &amp; not &lt;there&gt;">there</grammar> house &amp; <spelling comment="x">sat</spelling>.',
    );
    expect(parseHighlights(edited).items[0].comment).toBe('Use "their" & not <there>');
  });

  it('deletes a highlight and keeps its words', () => {
    const edited = withoutHighlight(parseHighlights(tagged), 0);
    expect(edited).toBe('He went to there house &amp; <spelling comment="x">sat</spelling>.');
    expect(plainText(edited)).toBe(plainText(tagged));
  });
});

describe('adding a highlight', () => {
  const TAGGED = 'He went to <grammar comment="Use their">there</grammar> house &amp; got a gift.';

  it('puts it on words no highlight covers, escaping its comment, and keeps the rest', () => {
    const parsed = parseHighlights(TAGGED);
    const found = findPassage(parsed, ' got a ', 30);
    expect(found).toEqual({ start: 25, end: 30 });
    const out = editHighlightsWith(TAGGED, [{ start: 25, end: 30, key: 'spelling', comment: 'Say "received"' }], new Map(), new Set());
    expect(out).toBe('He went to <grammar comment="Use their">there</grammar> house &amp; <spelling comment="Say &quot;received&quot;">got a</spelling> gift.');
    expect(plainText(out)).toBe(plainText(TAGGED));
  });

  it('finds the selected occurrence, else the first free one', () => {
    const parsed = parseHighlights('a cat and a cat and <grammar comment="">a cat</grammar>');
    expect(findPassage(parsed, 'a cat', 10)).toEqual({ start: 10, end: 15 });
    expect(findPassage(parsed, 'a cat')).toEqual({ start: 0, end: 5 });
    expect(findPassage(parsed, 'a cat', 20)).toEqual({ start: 0, end: 5 });
  });

  it('refuses words not in the text, words already highlighted, and nothing at all', () => {
    const parsed = parseHighlights(TAGGED);
    expect(findPassage(parsed, 'a dog')).toEqual({ error: expect.stringMatching(/^Those words are not in the submission’s text/) });
    expect(findPassage(parsed, 'there house')).toEqual({ error: expect.stringMatching(/^Those words are already highlighted/) });
    expect(findPassage(parsed, '  ')).toEqual({ error: 'Type or select the words to highlight.' });
  });

  it('changes nothing when the words were highlighted meanwhile, and a removal in the same save wins', () => {
    const covered = editHighlightsWith(TAGGED, [{ start: 11, end: 16, key: 'spelling', comment: '' }], new Map(), new Set());
    expect(covered).toBe(TAGGED);
    const addedThenRemoved = editHighlightsWith(TAGGED, [{ start: 25, end: 28, key: 'grammar', comment: '' }], new Map(), new Set([25]));
    expect(addedThenRemoved).toBe(TAGGED);
    const commented = editHighlightsWith(TAGGED, [{ start: 25, end: 28, key: 'grammar', comment: '' }], new Map([[25, 'Gave?']]), new Set());
    expect(commented).toContain('<grammar comment="Gave?">got</grammar>');
  });
});
