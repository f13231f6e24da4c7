import { describe, expect, it } from 'vitest';
import { fileSha256 } from './file-hash';

describe('fileSha256', () => {
  it('is the hex SHA-256 of the bytes, as the server computes it', async () => {
    const file = new File(['abc'], 'a.txt', { type: 'text/plain' });
    expect(await fileSha256(file)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
