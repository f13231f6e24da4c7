import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, shot, baseURL, signInByAPI, apiCall, DESKTOP } from '../browser.mjs';

// The app's Content-Security-Policy allows no inline style without the page's nonce: MUI's styles
// (emotion) carry it, the page is styled, and no page breaks the policy (launch() fails the file
// on any violation; these tests also look for one after each page).

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** directives splits a policy into its directives. */
function directives(csp) {
  return Object.fromEntries(
    csp.split(';').map((d) => {
      const [name, ...value] = d.trim().split(/\s+/);
      return [name, value.join(' ')];
    }),
  );
}

/** styled reports what shows whether MUI's styles apply, and the nonce emotion's style tags carry. */
function styled(page) {
  return page.evaluate(() => {
    const tags = [...document.querySelectorAll('style[data-emotion]')];
    return {
      emotionTags: tags.length,
      nonces: [...new Set(tags.map((t) => t.nonce))],
      rules: tags.reduce((n, t) => n + (t.sheet ? t.sheet.cssRules.length : 0), 0),
      bodyBackground: getComputedStyle(document.body).backgroundColor,
      bodyMargin: getComputedStyle(document.body).margin,
      pageNonce: document.querySelector('meta[property="csp-nonce"]')?.nonce,
    };
  });
}

async function expectStyled(page, response) {
  const csp = directives(response.headers()['content-security-policy']);
  assert.doesNotMatch(JSON.stringify(csp), /unsafe-inline/);
  const nonce = /^'self' 'nonce-([A-Za-z0-9_-]+)'$/.exec(csp['style-src'])?.[1];
  assert.ok(nonce, `style-src has a nonce: ${csp['style-src']}`);
  assert.equal(csp['img-src'], "'self' data: blob:", 'images: Markwell, data:, blob: (the local store is Markwell)');
  const s = await styled(page);
  assert.equal(s.pageNonce, nonce, 'the page carries the nonce of its policy');
  assert.ok(s.emotionTags > 0 && s.rules > 100, `emotion's styles are in the page (${s.emotionTags} tags, ${s.rules} rules)`);
  assert.deepEqual(s.nonces, [nonce], "every emotion style tag carries the page's nonce");
  assert.equal(s.bodyBackground, 'rgb(247, 245, 240)', "CssBaseline's paper background applies");
  assert.equal(s.bodyMargin, '0px');
  assert.deepEqual(browser.cspViolations, []);
}

test('the sign-in page and a team assignment list are styled with no CSP violation', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  try {
    const page = await ctx.newPage();
    let res = await page.goto(`${baseURL}/signin`);
    await page.getByRole('heading', { name: /markwell/i }).first().waitFor();
    // The form comes once the providers are read: on a loaded machine the heading is drawn well
    // before it, with fewer of MUI's styles in the page (seen: 43 rules).
    await page.getByRole('form', { name: 'Development sign-in' }).waitFor();
    await expectStyled(page, res);
    await shot(page, 'csp-signin-1280');

    await signInByAPI(page, 'Cass Policy', 'cass.policy@school.test');
    for (const name of ['Photosynthesis lab report', 'Poetry analysis']) {
      const put = await apiCall(page, 'POST', '/api/v1/db/assignment/put', { name, type: 'grade', isHandWritten: false, provideInstantFeedback: false });
      assert.equal(put.status, 200, JSON.stringify(put.body));
    }
    res = await page.goto(`${baseURL}/library`);
    await page.getByRole('heading', { name: 'Library' }).waitFor();
    await page.getByText('Photosynthesis lab report').first().waitFor();
    await expectStyled(page, res);
    await shot(page, 'csp-library-1280');

    // A page load gets a nonce of its own.
    const again = await page.reload();
    await page.getByText('Poetry analysis').first().waitFor();
    assert.notEqual(directives(again.headers()['content-security-policy'])['style-src'], directives(res.headers()['content-security-policy'])['style-src']);
    await expectStyled(page, again);
  } finally {
    await ctx.close();
  }
});

test('the watch catches a style without the nonce', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  try {
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/signin`);
    await page.getByRole('heading', { name: /markwell/i }).first().waitFor();
    const before = browser.cspViolations.length;
    await page.evaluate(() => {
      const s = document.createElement('style');
      s.textContent = 'body { background: red }';
      document.head.append(s);
    });
    for (let i = 0; i < 50 && browser.cspViolations.length === before; i++) await page.waitForTimeout(100);
    const caught = browser.cspViolations.splice(before);
    assert.equal(caught.length, 1, caught.join('\n'));
    assert.match(caught[0], /style-src-elem blocked inline/);
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(247, 245, 240)', 'the style was refused');
  } finally {
    await ctx.close();
  }
});
