/** A file's bytes (through FileReader where `Blob.arrayBuffer` is missing, as in jsdom). */
function bytesOf(file: Blob): Promise<ArrayBuffer> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * The SHA-256 of a file's bytes in lower-case hex, as the server stores a submission's
 * `contentHash`; null where the browser offers no Web Crypto (a page served over plain HTTP
 * from another host) or the file cannot be read, so callers treat the file as not seen before.
 */
export async function fileSha256(file: Blob): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  try {
    const digest = await subtle.digest('SHA-256', new Uint8Array(await bytesOf(file)));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  } catch {
    return null;
  }
}
