import { afterEach, describe, expect, it } from 'vitest';
import { createEmotionCache, cspNonce } from './emotion-cache';

function addMeta(nonce: string): HTMLMetaElement {
  const meta = document.createElement('meta');
  meta.setAttribute('property', 'csp-nonce');
  meta.setAttribute('nonce', nonce);
  document.head.append(meta);
  return meta;
}

afterEach(() => {
  document.head.querySelectorAll('meta[property="csp-nonce"]').forEach((m) => m.remove());
});

describe('the style nonce', () => {
  it("is read from the page the API served and given to emotion's style tags", () => {
    addMeta('Zm9vYmFyYmF6cXV4cXV1eA');
    expect(cspNonce()).toBe('Zm9vYmFyYmF6cXV4cXV1eA');

    const cache = createEmotionCache();
    expect(cache.key).toBe('css');
    expect(cache.sheet.nonce).toBe('Zm9vYmFyYmF6cXV4cXV1eA');
    cache.sheet.insert('.x{color:red}');
    const tag = cache.sheet.tags[0];
    expect(tag.getAttribute('nonce')).toBe('Zm9vYmFyYmF6cXV4cXV1eA');
    cache.sheet.flush();
  });

  it('is read from the property when the browser has hidden the attribute', () => {
    const meta = addMeta('');
    Object.defineProperty(meta, 'nonce', { value: 'aGlkZGVuLW5vbmNlLXZhbHVl' });
    expect(cspNonce()).toBe('aGlkZGVuLW5vbmNlLXZhbHVl');
  });

  it('is absent where the API did not serve the page', () => {
    expect(cspNonce()).toBeUndefined();
    addMeta('__CSP_NONCE__');
    expect(cspNonce()).toBeUndefined();
    expect(createEmotionCache().sheet.nonce).toBeUndefined();
  });
});
