import { describe, expect, it } from 'vitest';
import { errorFromUrl, safeCallbackPath, signInPath } from './callback-url';

describe('safeCallbackPath', () => {
  it.each([
    ['/team', '/team'],
    ['/library?folder=f1#top', '/library?folder=f1#top'],
    [`${window.location.origin}/team`, '/team'],
  ])('honours the same-origin address %s', (raw, expected) => {
    expect(safeCallbackPath(raw)).toBe(expected);
  });

  it.each([
    [null],
    [''],
    ['https://evil.example/phish'],
    ['//evil.example/phish'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['team'],
    ['/signin?error=SessionRequired'],
  ])('sends %s to the library', (raw) => {
    expect(safeCallbackPath(raw)).toBe('/library');
  });
});

describe('signInPath', () => {
  it('carries the error and the callback URL', () => {
    expect(signInPath({ error: 'SessionRequired', callbackUrl: '/team?x=1' })).toBe(
      '/signin?error=SessionRequired&callbackUrl=%2Fteam%3Fx%3D1',
    );
    expect(signInPath()).toBe('/signin');
  });
});

describe('errorFromUrl', () => {
  it('reads the error name from absolute and relative URLs', () => {
    expect(errorFromUrl('http://localhost:3000/signin?error=CredentialsSignin&provider=credentials')).toBe('CredentialsSignin');
    expect(errorFromUrl('/signin?error=OAuthCallbackError')).toBe('OAuthCallbackError');
    expect(errorFromUrl('http://localhost:3000/library')).toBeNull();
    expect(errorFromUrl(null)).toBeNull();
  });
});
