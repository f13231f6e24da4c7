/** One server-sent event: its name (`message` when the stream names none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

const LF = 10;
const CR = 13;

/**
 * An incremental parser of a `text/event-stream` body (the WHATWG rules): feed it text as it
 * arrives, in pieces of any size; it calls `onEvent` for each event when the blank line that
 * ends it arrives. Lines end with LF, CRLF or CR (a CRLF split between two pieces counts once);
 * comment lines (`: ping`) and the `id` and `retry` fields are ignored; an event without data
 * is dropped, as is an unfinished event when the stream ends.
 */
export class SseParser {
  private line = '';
  private afterCR = false;
  private eventName = '';
  private dataLines: string[] = [];
  private readonly onEvent: (event: SseEvent) => void;

  constructor(onEvent: (event: SseEvent) => void) {
    this.onEvent = onEvent;
  }

  /** Feeds the next piece of the body (already decoded text). */
  push(chunk: string): void {
    if (chunk === '') return;
    let i = 0;
    // The LF of a CRLF whose CR ended the previous piece.
    if (this.afterCR && chunk.charCodeAt(0) === LF) i = 1;
    this.afterCR = false;
    let start = i;
    for (; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      this.takeLine(this.line + chunk.slice(start, i));
      this.line = '';
      if (c === CR) {
        if (i + 1 === chunk.length) this.afterCR = true;
        else if (chunk.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
    }
    this.line += chunk.slice(start);
  }

  private takeLine(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return; // a comment, e.g. the server's ": ping"
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') this.dataLines.push(value);
  }

  private dispatch(): void {
    const name = this.eventName || 'message';
    const lines = this.dataLines;
    this.eventName = '';
    this.dataLines = [];
    if (lines.length === 0) return;
    this.onEvent({ event: name, data: lines.join('\n') });
  }
}
