import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { server } from '../testing/server';
import { api, NOT_MODIFIED } from './api-client';
import { forgetRevalidated, mergeRows } from './revalidated-query';

beforeEach(() => forgetRevalidated());

describe('mergeRows', () => {
  const a = { _id: 'a', v: 1 };
  const b = { _id: 'b', v: 1 };
  const c = { _id: 'c', v: 1 };

  it('replaces rows by _id, appends new ones in the order sent and drops deleted ones', () => {
    const merged = mergeRows([a, b, c], [{ _id: 'b', v: 2 }, { _id: 'd', v: 1 }, { _id: 'e', v: 1 }], ['a']);
    expect(merged).toEqual([{ _id: 'b', v: 2 }, c, { _id: 'd', v: 1 }, { _id: 'e', v: 1 }]);
    expect(merged[1]).toBe(c);
  });

  it('keeps the previous list itself when nothing in it changed', () => {
    const previous = [a, b];
    expect(mergeRows(previous, [], [])).toBe(previous);
    expect(mergeRows(previous, [], ['gone-before'])).toBe(previous);
  });

  it('drops a row added and deleted since the version', () => {
    expect(mergeRows([a], [{ _id: 'x', v: 1 }], ['x'])).toEqual([a]);
  });
});

describe('the api client', () => {
  it('resolves a 304 to NOT_MODIFIED, not an error', async () => {
    server.use(http.post('/api/v1/db/assignment/get', () => new HttpResponse(null, { status: 304 })));
    await expect(api.post('/api/v1/db/assignment/get', {}, { headers: { 'If-None-Match': '"v1"' } })).resolves.toBe(NOT_MODIFIED);
  });
});
