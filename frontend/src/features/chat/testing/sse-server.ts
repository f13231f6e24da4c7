import { http, HttpResponse } from 'msw';
import { server } from '../../../testing/server';

const encoder = new TextEncoder();

/** One server-sent event as the backend writes it. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A chat stream the test writes to as it goes. */
export interface TestStream {
  /** The request body the client sent. */
  body: unknown;
  /** Sends one event. */
  send: (event: string, data: unknown) => void;
  /** Sends raw text (e.g. a `: ping` comment). */
  raw: (text: string) => void;
  close: () => void;
  /** True once the client went away (aborted or cancelled the body). */
  cancelled: () => boolean;
}

/**
 * Answers `POST /api/v1/chat/stream` with a stream per request, held open until the test closes
 * it. Returns the streams in request order.
 */
export function holdChatStreams(): TestStream[] {
  const streams: TestStream[] = [];
  server.use(
    http.post('/api/v1/chat/stream', async ({ request }) => {
      const body: unknown = await request.json();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let cancelled = false;
      let closed = false;
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
        },
        cancel() {
          cancelled = true;
        },
      });
      request.signal.addEventListener('abort', () => {
        cancelled = true;
      });
      const write = (text: string) => {
        if (!closed && !cancelled) controller.enqueue(encoder.encode(text));
      };
      streams.push({
        body,
        send: (event, data) => write(sseEvent(event, data)),
        raw: write,
        close: () => {
          if (closed || cancelled) return;
          closed = true;
          controller.close();
        },
        cancelled: () => cancelled,
      });
      return new HttpResponse(stream, { headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
    }),
  );
  return streams;
}

/** Answers the chat stream with `text` cut into pieces of `size` bytes, all at once. */
export function streamBytes(text: string, size = 1) {
  const bytes = encoder.encode(text);
  server.use(
    http.post('/api/v1/chat/stream', () => {
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
          c.close();
        },
      });
      return new HttpResponse(stream, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
  );
}
