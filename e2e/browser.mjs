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
