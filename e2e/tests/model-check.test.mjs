// The operators' provider check (issue 22): an operator runs it in the app against the demo model
// and reads the table; a teacher gets 404.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, baseURL, signInByAPI, shotBoth, checkA11y, DESKTOP } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('an operator runs the provider check against the demo model and every task passes', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  try {
    const page = await ctx.newPage();
    await signInByAPI(page, 'Ops', 'ops.e2e@school.test');
    await page.goto(`${baseURL}/admin/model-check`);
    await page.getByRole('heading', { name: 'Provider check', level: 1 }).waitFor();
    await page.getByText('markwell-demo', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Run the check' }).click();
    const table = page.getByRole('table', { name: 'Tasks' });
    await table.waitFor({ timeout: 60_000 });
    await page.getByRole('alert').filter({ hasText: /^All 4 tasks passed/ }).waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(
      rows.map((r) => [r[0], r[2]]),
      [
        ['Grade (2 questions)', 'yes'],
        ['Feedback (highlighters)', 'yes'],
        ['Rubric feedback (3 criteria)', 'yes'],
        ['Prompt', 'yes'],
        ['Handwritten page', undefined],
      ],
    );
    for (const r of rows.slice(0, 4)) {
      assert.equal(r[1], 'json_schema', `${r[0]}: the demo model takes json_schema`);
      assert.match(r[4], /^[1-9]\d*$/, `${r[0]}: prompt tokens`);
    }
    assert.equal(rows[4][1], 'Skipped: LLM_VISION_MODEL is not set');
    await shotBoth(page, 'model-check');
    await checkA11y(page, 'model-check');
  } finally {
    await ctx.close();
  }
});

test('a teacher does not find the provider check: the server answers 404, as for /admin/jobs', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  try {
    const page = await ctx.newPage();
    await signInByAPI(page, 'Teacher', 'teacher.modelcheck@school.test');
    const res = await page.goto(`${baseURL}/admin/model-check`);
    assert.equal(res.status(), 404);
    assert.equal(await page.getByRole('button', { name: 'Run the check' }).count(), 0);
  } finally {
    await ctx.close();
  }
});
