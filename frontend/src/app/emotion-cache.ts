import createCache, { type EmotionCache } from '@emotion/cache';

/** What index.html carries until the API puts a fresh nonce in each copy it serves. */
const PLACEHOLDER = '__CSP_NONCE__';

/**
 * The style nonce of this copy of the page: the API serves index.html with a fresh nonce in
 * `<meta property="csp-nonce" nonce="…">` and the same one in its Content-Security-Policy
 * (`style-src 'self' 'nonce-…'`, no `'unsafe-inline'`). Browsers hide a nonce attribute's value
 * once the element is in the page, so the `nonce` property is read first. Undefined when the page
 * was not served by the API (the Vite dev server, unit tests).
 */
export function cspNonce(doc: Document = document): string | undefined {
  const meta = doc.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  const nonce = meta?.nonce || meta?.getAttribute('nonce') || '';
  return nonce && nonce !== PLACEHOLDER ? nonce : undefined;
}

/** Emotion's cache (MUI's styles): its `<style>` tags carry the page's nonce, so the CSP lets them apply. */
export function createEmotionCache(nonce: string | undefined = cspNonce()): EmotionCache {
  return createCache({ key: 'css', nonce });
}

const caches = new WeakMap<Document, EmotionCache>();

/**
 * The page's one emotion cache, made on first use. Keyed by document so that a cache never
 * outlives the page it writes into (unit tests run many jsdom documents in one process).
 */
export function emotionCacheFor(doc: Document = document): EmotionCache {
  let cache = caches.get(doc);
  if (!cache) {
    cache = createEmotionCache(cspNonce(doc));
    caches.set(doc, cache);
  }
  return cache;
}
