// The library page's Largest Contentful Paint, for `make bench` (cmd/bench lcp.go): Debian's
// chromium (the flags e2e uses), a fresh browser context per load (a cold cache), the CPU slowed 4×
// through the DevTools protocol (Emulation.setCPUThrottlingRate). Prints one JSON line:
// {"lcpMs": [..], "element": "..."}.
//
//   BASE_URL=http://127.0.0.1:8080 LCP_EMAIL=t@school.test LCP_NAME=Teacher LCP_RUNS=3 node e2e/bench/lcp.mjs
import { launch, signInByAPI } from '../browser.mjs';

const baseURL = process.env.BASE_URL;
const email = process.env.LCP_EMAIL;
const name = process.env.LCP_NAME ?? 'Bench Teacher';
const runs = Number(process.env.LCP_RUNS ?? 3);
const rate = Number(process.env.LCP_CPU_THROTTLE ?? 4);
if (!baseURL || !email) {
  console.error('lcp.mjs: BASE_URL and LCP_EMAIL are required');
  process.exit(2);
}

const browser = await launch();
const lcpMs = [];
let element = '';
try {
  for (let i = 0; i < runs; i++) {
    // A new context has its own empty cache and its own cookies.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const setup = await ctx.newPage();
    await signInByAPI(setup, name, email);
    await setup.close();

    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    // The page records every LCP candidate from its first paint on; the last one is the LCP.
    await page.addInitScript(() => {
      window.__lcp = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const el = e.element;
          const what = el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"` : e.url;
          window.__lcp.push({ t: e.startTime, what });
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.goto(`${baseURL}/library`, { waitUntil: 'load' });
    // The library has drawn its assignments when their links are there; then the page settles.
    await page.getByRole('heading', { name: 'Library' }).waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: /^LCP assignment/ }).first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const entries = await page.evaluate(() => window.__lcp);
    if (entries.length === 0) throw new Error('no largest-contentful-paint entry');
    const last = entries[entries.length - 1];
    lcpMs.push(Math.round(last.t));
    element = last.what;
    await ctx.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify({ lcpMs, element, cpuThrottle: rate }));
