// The NextAuth v4 browser client works against Markwell's /api/auth without
// changes: next-auth/react is bundled as it is and run in the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { launch, baseURL } from '../browser.mjs';

let browser;
let bundle;
before(async () => {
  browser = await launch();
  const out = await build({
    stdin: {
      contents: `import { getProviders, getCsrfToken, getSession, signIn, signOut } from 'next-auth/react';
        window.nextAuth = { getProviders, getCsrfToken, getSession, signIn, signOut };`,
      resolveDir: import.meta.dirname,
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
    define: { 'process.env': JSON.stringify({ NEXTAUTH_URL: `${baseURL}/api/auth`, NODE_ENV: 'production' }) },
  });
  bundle = out.outputFiles[0].text;
});
after(async () => {
  await browser?.close();
});

test('getProviders, getCsrfToken, getSession, signIn and signOut from next-auth/react', async () => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  try {
    // A same-origin page without the SPA's script policy, so the bundle can be injected.
    await page.goto(`${baseURL}/healthz`);
    await page.addScriptTag({ content: bundle });
    const r = await page.evaluate(async () => {
      const na = window.nextAuth;
      const providers = await na.getProviders();
      const csrf = await na.getCsrfToken();
      const before = await na.getSession();
      const bad = await na.signIn('credentials', { redirect: false, name: 'Ada', email: 'not-an-email', callbackUrl: '/library' });
      const good = await na.signIn('credentials', {
        redirect: false,
        name: 'Ada Lovelace',
        email: 'ada.nextauth@school.test',
        callbackUrl: '/library',
      });
      const during = await na.getSession();
      const out = await na.signOut({ redirect: false, callbackUrl: '/signin' });
      const afterOut = await na.getSession();
      return { providers, csrf, before, bad, good, during, out, afterOut };
    });
    assert.equal(r.providers.credentials.type, 'credentials');
    assert.equal(r.providers.credentials.id, 'credentials');
    assert.match(r.providers.credentials.signinUrl, /\/api\/auth\/signin\/credentials$/);
    assert.ok(typeof r.csrf === 'string' && r.csrf.length >= 32, 'a csrf token');
    assert.equal(r.before, null);
    assert.equal(r.bad.ok, false);
    assert.equal(r.bad.error, 'CredentialsSignin');
    assert.equal(r.good.ok, true);
    assert.equal(r.good.error, null);
    assert.equal(new URL(r.good.url).pathname, '/library');
    assert.equal(r.during.user.email, 'ada.nextauth@school.test');
    assert.equal(r.during.user.name, 'Ada Lovelace');
    assert.ok(Date.parse(r.during.expires) > Date.now());
    assert.equal(new URL(r.out.url).pathname, '/signin');
    assert.equal(r.afterOut, null);
  } finally {
    await ctx.close();
  }
});
