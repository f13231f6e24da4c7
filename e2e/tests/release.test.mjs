// Releasing results to students in a real browser against the real stack
// (no SMTP configured): a teacher grades a class, releases it, copies one
// student's private link; that link opens exactly that student's result in a
// fresh browser; after "Revoke" the same link says it does not work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, baseURL, DESKTOP, fullShot, launch, PHONE, shotBoth, signInByAPI, toast, apiOK as ok, uploadTexts as upload, submissionRow as row } from '../browser.mjs';

/** How long a batch may take to be read and graded on this loaded machine. */
const GRADE_TIMEOUT = 90_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('release a graded class without SMTP: copy a link, it opens that result only, revoke closes it', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await ctx.newPage();
  const sctx = await browser.newContext({ viewport: PHONE });
  try {
    await signInByAPI(page, 'Rhea Release', 'rhea.release@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name: 'Lab reflection', type: 'prompt', isHandWritten: false, provideInstantFeedback: false });
    const id = assignment._id;
    await ok(page, '/api/v1/db/function/put', { assignmentId: id, prompt: 'Give two strengths and one next step.' });
    const names = ['ana.txt', 'ben.txt', 'cy.txt'];
    await upload(page, id, {
      'ana.txt': 'Ana: we timed the pendulum ten times and averaged the period.',
      'ben.txt': 'Ben: the ball rolled further on the smooth ramp than on carpet.',
      'cy.txt': 'Cy: ice melted faster in salt water than in fresh water.',
    });
    await page.goto(`${baseURL}/assignment/${id}`);
    for (const n of names) await row(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await page.getByRole('button', { name: 'Grade all' }).click();
    await toast(page, 'Grading submissions!');
    for (const n of names) await row(page, n).getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    for (const n of names) await row(page, n).getByText('Not released', { exact: true }).waitFor();

    // Nothing is reviewed: "Release all reviewed (0)" is off, so the teacher selects the class.
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Release results to students' });
    await dialog.getByText('Email is not set up on this server', { exact: false }).waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Release all reviewed (0)' }).isDisabled(), true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('checkbox', { name: 'Select all submissions' }).check();
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Release results to students' });
    await dialog.getByRole('button', { name: 'Release 3 selected' }).waitFor();
    await shotBoth(page, 'release-dialog', { dialog: true });
    await dialog.getByRole('button', { name: 'Release 3 selected' }).click();
    await toast(page, 'Released 3 results.');
    for (const n of names) await row(page, n).getByText('Released', { exact: true }).waitFor();
    await shotBoth(page, 'release-table');

    // Copy Ana's link.
    await row(page, 'ana.txt').getByRole('button', { name: 'Copy link for ana.txt' }).click();
    await toast(page, 'Copied the link for ana.txt.');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, new RegExp(`^${baseURL}/results/[A-Za-z0-9_-]{43}$`));
    const { releases } = await ok(page, '/api/v1/db/assignment/release/list', { assignmentId: id });
    assert.equal(new Set(releases.map((r) => r.link)).size, 3, 'one link per student');

    // In a fresh browser (another device, no session): Ana's result, nobody else's.
    const sp = await sctx.newPage();
    await sp.goto(link);
    await sp.getByRole('heading', { name: 'Lab reflection' }).waitFor();
    await sp.getByRole('heading', { name: 'Feedback' }).waitFor({ timeout: 30_000 });
    await sp.getByText('we timed the pendulum', { exact: false }).first().waitFor();
    assert.equal(await sp.getByText('smooth ramp', { exact: false }).count(), 0);
    assert.equal(await sp.getByText('salt water', { exact: false }).count(), 0);
    await fullShot(sp, 'release-student-390');

    // Revoke: the link stops working at once.
    await row(page, 'ana.txt').getByRole('button', { name: 'Revoke link for ana.txt' }).click();
    await page.getByRole('dialog', { name: 'Revoke the link for ana.txt?' }).getByRole('button', { name: 'Revoke link' }).click();
    await toast(page, 'Revoked the link for ana.txt');
    await row(page, 'ana.txt').getByText('Not released', { exact: true }).waitFor();
    await sp.reload();
    await sp.getByRole('heading', { name: 'This result link does not work.' }).waitFor();
    assert.equal(await sp.getByText('we timed the pendulum', { exact: false }).count(), 0);
    await fullShot(sp, 'release-revoked-390');
  } finally {
    await sctx.close();
    await ctx.close();
  }
});
