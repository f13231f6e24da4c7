// The first load (issue 23): each page downloads its own code. The library does not fetch the
// assignment page's chunk; opening an assignment does, and Back returns to the library. A page from
// an earlier build whose chunk is gone (404) reloads itself once and opens the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, baseURL, signInByAPI, apiCall } from '../browser.mjs';

/** The built file of a source module, from the build's manifest (the server never serves it). */
const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'frontend', 'dist', '.vite', 'manifest.json'), 'utf8'));
const chunkOf = (src) => {
  const file = manifest[src]?.file;
  assert.ok(file, `${src} has its own chunk in the build`);
  return `/${file}`;
};
const ASSIGNMENT_CHUNK = chunkOf('src/app/routes/AssignmentRoute.tsx');
const LIBRARY_CHUNK = chunkOf('src/features/library/components/LibraryPage.tsx');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A signed-in page with a library of one assignment; `scripts` lists the paths of every script fetched. */
async function signedIn(email) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const scripts = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script' || r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname);
  });
  await signInByAPI(page, 'Fay Firstload', email);
  const put = await apiCall(page, 'POST', '/api/v1/db/assignment/put', {
    name: 'Volcanoes essay',
    type: 'prompt',
    isHandWritten: false,
    provideInstantFeedback: false,
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  return { page, errors, scripts, close: () => ctx.close() };
}

test('the library loads without the assignment page’s code; opening an assignment fetches it and Back returns', async () => {
  const { page, errors, scripts, close } = await signedIn('fay.firstload@school.test');
  try {
    await page.goto(`${baseURL}/library`);
    await page.getByRole('heading', { name: 'Library' }).waitFor();
    await page.getByRole('link', { name: 'Volcanoes essay' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.ok(scripts.includes(LIBRARY_CHUNK), `the library's chunk was fetched: ${scripts.join(' ')}`);
    assert.ok(!scripts.includes(ASSIGNMENT_CHUNK), `the library fetched the assignment page's chunk ${ASSIGNMENT_CHUNK}`);

    await page.getByRole('link', { name: 'Volcanoes essay' }).click();
    await page.getByRole('heading', { name: 'Volcanoes essay' }).waitFor();
    assert.match(page.url(), /\/assignment\/[^/]+$/);
    assert.ok(scripts.includes(ASSIGNMENT_CHUNK), 'opening the assignment fetched its chunk');

    await page.goBack();
    await page.getByRole('heading', { name: 'Library' }).waitFor();
    assert.match(page.url(), /\/library$/);

    // The manifest the bench reads is not served.
    const res = await page.request.get(`${baseURL}/.vite/manifest.json`);
    assert.equal(res.status(), 404);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a page whose chunk a new build removed reloads once and opens', async () => {
  const { page, close } = await signedIn('gil.staledeploy@school.test');
  try {
    await page.goto(`${baseURL}/library`);
    await page.getByRole('link', { name: 'Volcanoes essay' }).waitFor();
    // As after a deploy: the chunk this page's build names is gone.
    let refused = 0;
    await page.route(`**${ASSIGNMENT_CHUNK}`, async (route) => {
      if (refused++ === 0) return route.fulfill({ status: 404, body: 'gone' });
      return route.continue();
    });
    const loads = [];
    page.on('load', () => loads.push(page.url()));

    await page.getByRole('link', { name: 'Volcanoes essay' }).click();
    await page.getByRole('heading', { name: 'Volcanoes essay' }).waitFor();
    assert.equal(refused, 2, 'the chunk was asked for again after the reload');
    assert.equal(loads.length, 1, `one reload, at the assignment: ${loads.join(' ')}`);
    assert.match(loads[0], /\/assignment\/[^/]+$/);
    assert.equal(await page.getByText('Something went wrong').count(), 0);
  } finally {
    await close();
  }
});
