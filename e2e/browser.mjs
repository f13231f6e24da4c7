// Debian's chromium driven by playwright-core (never a downloaded browser).
import { chromium } from 'playwright-core';
import { join } from 'node:path';

export const baseURL = process.env.BASE_URL;
export const outDir = process.env.E2E_OUTPUT;

/** launch starts headless chromium with the flags this environment needs. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/** shot saves a full-page screenshot under e2e/output/. */
export async function shot(page, name) {
  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true });
}

/**
 * signInByAPI signs a page's browser context in with the development sign-in,
 * the way next-auth/react does (CSRF token, form post), without the UI.
 */
export async function signInByAPI(page, name, email) {
  if (!page.url().startsWith(baseURL)) await page.goto(`${baseURL}/healthz`);
  const status = await page.evaluate(
    async ({ name, email }) => {
      const { csrfToken } = await (await fetch('/api/auth/csrf')).json();
      const res = await fetch('/api/auth/callback/credentials', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Auth-Return-Redirect': '1' },
        body: new URLSearchParams({ csrfToken, name, email, callbackUrl: '/library', json: 'true' }),
      });
      return res.status;
    },
    { name, email },
  );
  if (status !== 200) throw new Error(`sign-in of ${email} failed: ${status}`);
}

/** apiCall runs a JSON call from the page with the CSRF header, as the app does. */
export function apiCall(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const { csrfToken } = await (await fetch('/api/auth/csrf')).json();
      const res = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      let json = {};
      try {
        json = await res.json();
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: json };
    },
    { method, path, body },
  );
}
