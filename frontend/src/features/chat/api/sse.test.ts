import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from './sse';

function parseAll(pieces: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const piece of pieces) parser.push(piece);
  return events;
}

/** Every way of cutting `text` in two, plus one piece per character. */
function splits(text: string): string[][] {
  const out: string[][] = [[text], Array.from(text)];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

const STREAM =
  ': ping\n\n' +
  'event: meta\ndata: {"omittedTurns":2}\n\n' +
  'event: delta\r\ndata: {"text":"Hé 👋"}\r\n\r\n' +
  ': ping\r\n\r\n' +
  'event: document\rdata: {"document":"# Plan"}\r\r' +
  'event: done\ndata: {"text":"a",\ndata: "document":""}\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'meta', data: '{"omittedTurns":2}' },
  { event: 'delta', data: '{"text":"Hé 👋"}' },
  { event: 'document', data: '{"document":"# Plan"}' },
  { event: 'done', data: '{"text":"a",\n"document":""}' },
];

describe('SseParser', () => {
  it('reads events with LF, CRLF and CR line ends, skipping ping comments', () => {
    expect(parseAll([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events however the body is cut into pieces', () => {
    for (const pieces of splits(STREAM)) expect(parseAll(pieces)).toEqual(EXPECTED);
  });

  it('counts a CRLF split between two pieces as one line end', () => {
    expect(parseAll(['event: delta\r', '\ndata: {}\r', '\n\r', '\n'])).toEqual([{ event: 'delta', data: '{}' }]);
  });

  it('names an unnamed event "message", drops events without data and an unfinished last event', () => {
    expect(parseAll(['data: x\n\nevent: meta\n\nevent: delta\ndata: cut'])).toEqual([{ event: 'message', data: 'x' }]);
  });
});
