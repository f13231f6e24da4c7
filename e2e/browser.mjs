// Debian's chromium driven by playwright-core (never a downloaded browser).
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const baseURL = process.env.BASE_URL;
export const outDir = process.env.E2E_OUTPUT;

/**
 * launch starts headless chromium with the flags this environment needs. Every context it makes
 * watches for Content-Security-Policy violations (watchCSP), and closing the browser throws when
 * any page had one, so a test file whose pages break the policy fails.
 */
export async function launch() {
  const browser = await chromium.launch({
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
  const violations = [];
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const ctx = await newContext(options);
    await watchCSP(ctx, violations);
    return ctx;
  };
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    await close(options);
    if (violations.length > 0) {
      throw new Error(`Content-Security-Policy violations (${violations.length}):\n  ${violations.join('\n  ')}`);
    }
  };
  browser.cspViolations = violations;
  return browser;
}

/** The marker a page's CSP violation is logged with. */
const CSP_MARK = 'markwell-e2e CSP violation:';

/**
 * watchCSP records in `violations` every Content-Security-Policy violation in ctx's pages: an inline
 * style without the page's nonce (emotion's tags carry it), an image from outside the file store, a
 * script, a connection. The page reports each `securitypolicyviolation` event on the console; the
 * browser's own "Refused to …" messages count too.
 */
export async function watchCSP(ctx, violations) {
  await ctx.addInitScript((mark) => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => console.error(`${mark} ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || '?'}:${e.lineNumber} ${e.sample || ''}`),
      true,
    );
  }, CSP_MARK);
  ctx.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' && (text.startsWith(CSP_MARK) || /^Refused to (apply|load|execute|connect|frame)/.test(text))) {
      violations.push(`${msg.page()?.url() ?? '?'}: ${text}`);
    }
  });
}

/** shot checks the page with axe (checkA11y) and saves a full-page screenshot under e2e/output/. */
export async function shot(page, name) {
  await checkA11y(page, name);
  await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: true });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The axe rules run: WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * checkA11y runs axe-core (WCAG 2 A/AA rules) on the page as it is now, writes the whole result to
 * e2e/output/axe-{name}.json and throws listing every serious or critical violation. axe is injected
 * through the DevTools protocol (page.evaluate), so a Content-Security-Policy does not block it.
 */
export async function checkA11y(page, name) {
  // Colours are measured at rest: wait for MUI's transitions (a toast fading in, a dialog sliding)
  // to finish. Endless animations (spinners) do not count.
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      null,
      { timeout: 5000 },
    )
    .catch(() => {});
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(`${axeSource}\n;void 0`);
  const result = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }),
    AXE_TAGS,
  );
  const { violations, incomplete, url, timestamp, testEngine } = result;
  writeFileSync(join(outDir, `axe-${name}.json`), JSON.stringify({ url, timestamp, testEngine, violations, incomplete }, null, 2));
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length === 0) return;
  const lines = bad.map((v) => {
    const targets = v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ');
    const more = v.nodes.length > 4 ? ` (+${v.nodes.length - 4} more)` : '';
    return `  - [${v.impact}] ${v.id}: ${v.help} — ${targets}${more}`;
  });
  throw new Error(`axe on ${name} (${url}): ${bad.length} serious/critical violation(s):\n${lines.join('\n')}`);
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

/** The viewports the suite photographs: a laptop and a phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** toast waits for the global toast that says `text`. */
export const toast = (page, text) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();

/** fullShot grows the viewport to the page so the whole page (sticky footers at its end) is in the picture. */
export async function fullShot(page, name) {
  // The pointer left where the last click was can open a tooltip (after its delay) while axe
  // measures colours mid-fade: move it away and let any tooltip close first, as shotBoth does.
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => !document.querySelector('.MuiTooltip-popper'), null, { timeout: 2000 }).catch(() => {});
  const vp = page.viewportSize();
  const h = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: vp.width, height: Math.max(vp.height, h) });
  await shot(page, name);
  await page.setViewportSize(vp);
}

/**
 * shotBoth saves the page at desktop and phone width, checking the phone view does not scroll
 * sideways. A dialog is photographed as the screen shows it, a page in full. The pointer is moved
 * away first, so no hover popover left by the last click is in the picture.
 */
export async function shotBoth(page, name, { dialog = false } = {}) {
  const vp = page.viewportSize();
  const take = async (file) => {
    if (!dialog) return fullShot(page, file);
    await checkA11y(page, file);
    await page.screenshot({ path: join(outDir, `${file}.png`) });
  };
  await page.mouse.move(0, 0);
  await page.setViewportSize(DESKTOP);
  await take(`${name}-1280`);
  await page.setViewportSize(PHONE);
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (over > 0) throw new Error(`${name} on a phone: ${over}px wider than the screen`);
  await take(`${name}-390`);
  await page.setViewportSize(vp);
}

/** pickFiles clicks a button that opens the file picker and picks `files` in it (paths or { name, mimeType, buffer }). */
export async function pickFiles(page, button, files) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.click()]);
  await chooser.setFiles(files);
}

/** apiOK calls the API from the page and asserts a 200, answering the body's data. */
export async function apiOK(page, path, body, method = 'POST') {
  const res = await apiCall(page, method, path, body);
  assert.equal(res.status, 200, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * uploadTexts sends text files as a teacher's batch upload does (signed PUT, then
 * update-submissions) and answers the submissions made.
 */
export async function uploadTexts(page, assignmentId, files) {
  const submissions = [];
  for (const [name, text] of Object.entries(files)) {
    const up = await apiOK(page, '/api/v1/s3-upload', {
      fileName: `assignments/${assignmentId}/submissions/${name}`,
      fileType: 'text/plain',
      fileSize: new TextEncoder().encode(text).length,
    });
    const put = await page.evaluate(
      async ({ url, text }) => (await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: text })).status,
      { url: up.signedUrl, text },
    );
    assert.ok(put >= 200 && put < 300, `PUT of ${name}: ${put}`);
    submissions.push({ name, location: up.fileUrl });
  }
  const data = await apiOK(page, '/api/v1/db/assignment/update-submissions', {
    assignmentId,
    submissions,
    submissionRole: 'teacher',
    requiresTextractArray: submissions.map(() => true),
    requiresPDFReadArray: submissions.map(() => false),
    requiresImageReadArray: submissions.map(() => false),
    isHandWritten: false,
  });
  return data.submissions;
}

/** submissionRow is the submissions table's row of a file or student. */
export function submissionRow(page, name) {
  return page.getByRole('table', { name: 'Submissions' }).getByRole('row').filter({ hasText: name });
}
