import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { server } from '../testing/server';
import { ApiError } from './api-client';
import { requestSignedUpload, uploadFile, UploadError, withoutQuery } from './upload-file';

const SIGNED_URL = '/files/upload/assignments/a1/submissions/k1-essay.pdf?expires=1&sig=abc';

const essay = () => new Blob(['x'.repeat(4096)], { type: 'application/pdf' });

describe('requestSignedUpload', () => {
  it('posts the request and uses the location the server names', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/s3-pub-upload', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ data: { signedUrl: SIGNED_URL, location: 'assignments/a1/submissions/k1-essay.pdf' } });
      }),
    );

    const upload = await requestSignedUpload('/api/v1/s3-pub-upload', { fileName: 'essay.pdf', linkToken: 'tok-1' });

    expect(upload).toEqual({ signedUrl: SIGNED_URL, location: 'assignments/a1/submissions/k1-essay.pdf' });
    expect(bodies).toEqual([{ fileName: 'essay.pdf', linkToken: 'tok-1' }]);
  });

  it('falls back to the signed URL without its query string (the file URL)', async () => {
    server.use(
      http.post('/api/v1/s3-upload', () =>
        HttpResponse.json({ data: { signedUrl: `http://blobs.test${SIGNED_URL}`, key: 'assignments/a1/submissions/k1-essay.pdf' } }),
      ),
    );

    const upload = await requestSignedUpload('/api/v1/s3-upload', { fileName: 'essay.pdf' });

    expect(upload.location).toBe('http://blobs.test/files/upload/assignments/a1/submissions/k1-essay.pdf');
  });

  it("rejects with the server's refusal, or when no upload address comes back", async () => {
    server.use(
      http.post('/api/v1/s3-upload', () =>
        HttpResponse.json({ error: { code: 'invalid', message: 'This file is larger than the 50 MB limit.' } }, { status: 400 }),
      ),
      http.post('/api/v1/s3-pub-upload', () => HttpResponse.json({ data: {} })),
    );

    const refused = await requestSignedUpload('/api/v1/s3-upload', {}).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, message: 'This file is larger than the 50 MB limit.' });
    await expect(requestSignedUpload('/api/v1/s3-pub-upload', {})).rejects.toThrow('The server sent no upload address');
  });
});

describe('withoutQuery', () => {
  it('drops the query string and fragment', () => {
    expect(withoutQuery('https://s3.test/b/k1-a.pdf?X-Amz-Signature=1#x')).toBe('https://s3.test/b/k1-a.pdf');
    expect(withoutQuery('/files/k1-a.pdf')).toBe('/files/k1-a.pdf');
  });
});

describe('uploadFile', () => {
  it('PUTs the bytes with their media type and ends its progress at 1', async () => {
    const puts: { contentType: string | null; ifNoneMatch: string | null; size: number }[] = [];
    server.use(
      http.put('/files/upload/*', async ({ request }) => {
        puts.push({
          contentType: request.headers.get('Content-Type'),
          ifNoneMatch: request.headers.get('If-None-Match'),
          size: (await request.arrayBuffer()).byteLength,
        });
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const progress: number[] = [];

    await uploadFile(SIGNED_URL, essay(), 'application/pdf', { onProgress: (fraction) => progress.push(fraction) });

    // If-None-Match: * is signed into S3 upload URLs: without it the bucket refuses the PUT.
    expect(puts).toEqual([{ contentType: 'application/pdf', ifNoneMatch: '*', size: 4096 }]);
    expect(progress.at(-1)).toBe(1);
    expect(progress.every((fraction) => fraction >= 0 && fraction <= 1)).toBe(true);
  });

  it.each([
    [new HttpResponse('<Error>AccessDenied</Error>', { status: 403 }), 403, 'The upload link was refused or has expired. Please try again.'],
    [new HttpResponse('too big', { status: 413 }), 413, 'This file is larger than the upload limit.'],
    [
      new HttpResponse('<Error><Code>PreconditionFailed</Code></Error>', { status: 412 }),
      412,
      'This upload link has already been used, and the file sent with it cannot be replaced. To send a different file, upload it again.',
    ],
    [new HttpResponse('oops', { status: 502 }), 502, 'The upload failed (status 502). Please try again.'],
    [
      HttpResponse.json({ error: { code: 'invalid', message: 'The file is not the size that was signed.' } }, { status: 400 }),
      400,
      'The file is not the size that was signed.',
    ],
  ])('rejects a refused PUT with a message the user can act on (%#)', async (response, status, message) => {
    server.use(http.put('/files/upload/*', () => response));

    const error = await uploadFile(SIGNED_URL, essay(), 'application/pdf').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ status, message });
  });

  it('rejects when the storage cannot be reached', async () => {
    server.use(http.put('/files/upload/*', () => HttpResponse.error()));

    const error = await uploadFile(SIGNED_URL, essay(), 'application/pdf').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({
      status: 0,
      message: 'The file could not reach the server. Check your connection and try again.',
    });
  });

  it('sends nothing when already cancelled', async () => {
    let puts = 0;
    server.use(http.put('/files/upload/*', () => ((puts += 1), new HttpResponse(null, { status: 200 }))));
    const controller = new AbortController();
    controller.abort();

    const error = await uploadFile(SIGNED_URL, essay(), 'application/pdf', { signal: controller.signal }).catch((e: unknown) => e);

    expect(error).toMatchObject({ name: 'AbortError' });
    expect(puts).toBe(0);
  });

  it('aborts the PUT under way and rejects with an AbortError when cancelled', async () => {
    // MSW cannot abort a mocked XHR that is still waiting for its answer: a stand-in that
    // answers only when aborted, as a browser does.
    const sent: StalledXhr[] = [];
    class StalledXhr {
      upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      send() {
        sent.push(this);
      }
      abort() {
        this.onabort?.();
      }
    }
    vi.stubGlobal('XMLHttpRequest', StalledXhr);
    onTestFinished(() => void vi.unstubAllGlobals());
    const controller = new AbortController();

    const upload = uploadFile(SIGNED_URL, essay(), 'application/pdf', { signal: controller.signal }).catch((e: unknown) => e);
    expect(sent).toHaveLength(1);
    controller.abort();

    expect(await upload).toMatchObject({ name: 'AbortError' });
  });
});
