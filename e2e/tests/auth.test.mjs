// Sign-in, sessions across tabs, and teams, in a real browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, shot, baseURL } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** signInWithForm fills the development sign-in form on the sign-in page. */
async function signInWithForm(page, name, email) {
  const form = page.getByRole('form', { name: 'Development sign-in' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByRole('button', { name: 'Continue' }).click();
}

test('sign in, stay signed in, sign out in one tab and the other notices, come back to the same page', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const tab1 = await ctx.newPage();
    await tab1.goto(`${baseURL}/library`);
    await tab1.waitForURL((u) => u.pathname === '/signin' && u.searchParams.get('error') === 'SessionRequired');
    assert.equal(new URL(tab1.url()).searchParams.get('callbackUrl'), '/library');
    await tab1.getByText(/^Welcome! Sign in to see your team’s assignments/).waitFor();
    await shot(tab1, 'auth-signin-1280');

    await signInWithForm(tab1, 'Ada Example', 'ada.e2e@school.test');
    await tab1.waitForURL(`${baseURL}/library`);
    await tab1.getByRole('heading', { name: 'Library', level: 1 }).waitFor();
    await tab1.reload();
    await tab1.getByRole('heading', { name: 'Library', level: 1 }).waitFor();
    assert.equal(new URL(tab1.url()).pathname, '/library', 'still signed in after a reload');

    const tab2 = await ctx.newPage();
    await tab2.goto(`${baseURL}/team`);
    await tab2.getByRole('heading', { name: 'Team', exact: true, level: 1 }).waitFor();

    await tab1.getByRole('button', { name: 'Account menu for Ada Example' }).click();
    await tab1.getByRole('menuitem', { name: 'Sign out' }).click();
    await tab1.waitForURL((u) => u.pathname === '/signin');

    // The other tab hears of it and asks to sign in, keeping its place.
    await tab2.waitForURL((u) => u.pathname === '/signin' && u.searchParams.get('callbackUrl') === '/team');
    await signInWithForm(tab2, 'Ada Example', 'ada.e2e@school.test');
    await tab2.waitForURL(`${baseURL}/team`);
    await tab2.getByText("Ada Example's team").first().waitFor();
  } finally {
    await ctx.close();
  }
});

test('a teacher invites a colleague, who signs in and shares the team', async () => {
  const adaCtx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const beaCtx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const ada = await adaCtx.newPage();
    await ada.goto(`${baseURL}/team`);
    await signInWithForm(ada, 'Ada Inviter', 'ada.inviter@school.test');
    await ada.waitForURL(`${baseURL}/team`);
    const inviteForm = ada.getByRole('form', { name: 'Invite a colleague' });
    await inviteForm.getByRole('textbox', { name: 'Email address' }).fill('bea.invited@school.test');
    await inviteForm.getByRole('button', { name: 'Invite' }).click();
    await ada.getByRole('alert').filter({ hasText: 'Invitation sent to bea.invited@school.test' }).waitFor();
    await ada.getByRole('list', { name: 'Pending invitations' }).getByText('bea.invited@school.test').waitFor();
    await shot(ada, 'team-1280');

    const bea = await beaCtx.newPage();
    await bea.goto(`${baseURL}/team`);
    await signInWithForm(bea, 'Bea Invited', 'bea.invited@school.test');
    await bea.waitForURL(`${baseURL}/team`);
    await bea.getByText("Ada Inviter's team").first().waitFor();
    const members = bea.getByRole('list', { name: 'Members' });
    await members.getByText('Ada Inviter').waitFor();
    await members.getByText('Bea Invited').waitFor();
    const overflow = await bea.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the team page fits a phone (${overflow}px over)`);
    await shot(bea, 'team-390');

    await bea.goto(`${baseURL}/library`);
    await bea.getByText("Ada Inviter's team · shared with your team").waitFor();

    // Ada sees Bea join once the page refreshes its data.
    await ada.reload();
    await ada.getByRole('list', { name: 'Members' }).getByText('Bea Invited').waitFor();
  } finally {
    await adaCtx.close();
    await beaCtx.close();
  }
});
