// The year-group figures of `make bench` (cmd/bench/yeargroup.go): a grade
// assignment of N submissions imported from a CSV as the UI does, then its page
// opened in Chromium: time to the first table row, DOM nodes, JS heap, and the
// bytes of one poll. Prints one JSON object per size on stdout.
// BASE_URL: a running stack; SIZES: comma-separated class sizes.
// TRACE=1: also writes where the first row's time went, per size, to
// e2e/output/yeargroup-trace-<n>.txt (see startTrace).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiCall, launch, signInByAPI, baseURL } from './browser.mjs';

const sizes = (process.env.SIZES || '1500,10000').split(',').map(Number);

async function importClass(page, n) {
  const put = await apiCall(page, 'POST', '/api/v1/db/assignment/put', { name: `Year group ${n}`, type: 'grade', isHandWritten: false, provideInstantFeedback: false });
  const id = put.body.data.assignment._id;
  const q = (text, ...c) => ({ questionText: text, context: '', rubricId: null, criteria: c.map((d, i) => ({ description: d, points: 2 + i })), subquestions: [] });
  await apiCall(page, 'POST', '/api/v1/db/function/put', {
    assignmentId: id,
    questions: [q('Explain photosynthesis.', 'Names chlorophyll', 'Mentions glucose'), q('Describe the water cycle.', 'Evaporation', 'Condensation')],
  });
  const lines = ['Name,Email,Q1,Q2'];
  for (let i = 1; i <= n; i++) lines.push(`Student ${i},student${i}@school.test,Plants use chlorophyll to make glucose ${i},Water evaporates and condenses ${i}`);
  const csv = lines.join('\n');
  const started = Date.now();
  const ok = await page.evaluate(
    async ({ id, csv }) => {
      const { csrfToken } = await (await fetch('/api/auth/csrf')).json();
      const post = async (path, body) =>
        (await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken }, body: JSON.stringify(body) })).json();
      const up = await post('/api/v1/s3-upload', { fileName: `assignments/${id}/submissions/class.csv`, fileType: 'text/csv', fileSize: csv.length });
      const put = await fetch(up.data.signedUrl, { method: 'PUT', headers: { 'Content-Type': 'text/csv', 'If-None-Match': '*' }, body: csv });
      if (!put.ok) return `PUT ${put.status}`;
      const loc = up.data.signedUrl.split('?')[0];
      const res = await post('/api/v1/db/assignment/update-submissions-csv', {
        assignmentId: id, submissionRole: 'teacher', type: 'grade', csvLocation: loc,
        parsedCSV: { nameColumn: 0, emailColumn: 1, questions: [{ question: 0, column: 2 }, { question: 1, column: 3 }] },
      });
      return res.error ? res.error.message : 'ok';
    },
    { id, csv },
  );
  if (ok !== 'ok') throw new Error(`CSV import of ${n}: ${ok}`);
  return { id, importSeconds: (Date.now() - started) / 1000 };
}

/**
 * The timeline of one navigation, relative to the navigation's start: every request the page sent
 * (start, first byte and end from the browser's resource timing, the API call's body), the page's
 * long tasks and paints, when the first table row was added to the DOM, and the main thread's
 * script, layout and style time (CDP Performance metrics) up to then. Call before goto; finish()
 * after the first row is visible returns the text.
 */
async function startTrace(view, cdp) {
  await view.addInitScript(() => {
    const w = /** @type {any} */ (window);
    w.__trace = { longTasks: [], frames: [], firstRowAt: null, firstTableAt: null, headingAt: null, panelAt: null };
    // Long animation frames name the scripts that ran in them (Chromium 123+).
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          const scripts = (e.scripts ?? [])
            .filter((s) => s.duration >= 5)
            .map((s) => `${s.invoker || s.invokerType} ${(s.sourceURL || '').split('/').pop()}:${s.sourceFunctionName || '?'} ${Math.round(s.startTime)}+${Math.round(s.duration)}`);
          w.__trace.frames.push(`${Math.round(e.startTime)}+${Math.round(e.duration)} (blocking ${Math.round(e.blockingDuration)}): ${scripts.join('; ') || 'rendering'}`);
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
    } catch {}
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__trace.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
      }).observe({ type: 'longtask', buffered: true });
    } catch {}
    const seen = () => {
      if (w.__trace.headingAt === null && document.querySelector('main h1')) w.__trace.headingAt = performance.now();
      if (w.__trace.panelAt === null && document.querySelector('[role="toolbar"][aria-label="Selected submissions"]')) w.__trace.panelAt = performance.now();
      if (w.__trace.firstTableAt === null && document.querySelector('table[aria-label="Submissions"]')) w.__trace.firstTableAt = performance.now();
      if (document.querySelector('table[aria-label="Submissions"] tbody tr')) {
        w.__trace.firstRowAt = performance.now();
        return true;
      }
      return false;
    };
    new MutationObserver((_, obs) => seen() && obs.disconnect()).observe(document, { childList: true, subtree: true });
  });
  // Each API call's body, in the order sent, by path (resource timing has no bodies).
  const bodies = new Map();
  view.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'POST') bodies.set(path, [...(bodies.get(path) ?? []), (r.postData() ?? '').slice(0, 90)]);
  });
  const before = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  // A CPU profile of the page until the first row: where the script time went, by chunk and function.
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  return async () => {
    const after = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const { profile } = await cdp.send('Profiler.stop');
    const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    const byChunk = new Map();
    const byFunction = new Map();
    profile.samples.forEach((id, i) => {
      const f = frames.get(id);
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const chunk = f.url ? f.url.split('/').pop() : `(${f.functionName || 'program'})`;
      byChunk.set(chunk, (byChunk.get(chunk) ?? 0) + ms);
      const fn = `${f.functionName || '(anonymous)'} ${chunk}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    });
    const top = (m, n) => [...m].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `  ${String(Math.round(v)).padStart(5)} ms  ${k}`);
    const t = await view.evaluate(() => {
      const w = /** @type {any} */ (window);
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource').map((e) => ({
        name: e.name.replace(location.origin, ''),
        type: e.initiatorType,
        start: e.startTime,
        ttfb: e.responseStart,
        end: e.responseEnd,
        kb: e.transferSize / 1024,
        server: e.responseStart - e.requestStart,
      }));
      const paints = performance.getEntriesByType('paint').map((e) => [e.name, Math.round(e.startTime)]);
      return {
        nav: { ttfb: nav.responseStart, domInteractive: nav.domInteractive, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd },
        res, paints, ...w.__trace,
      };
    });
    const ms = (v) => String(Math.round(v)).padStart(6);
    const lines = [
      `first table row in the DOM at ${Math.round(t.firstRowAt)} ms (table at ${Math.round(t.firstTableAt ?? -1)}, the page's h1 at ${Math.round(t.headingAt ?? -1)}, the table's toolbar at ${Math.round(t.panelAt ?? -1)}); document first byte ${Math.round(t.nav.ttfb)}, DOMContentLoaded ${Math.round(t.nav.domContentLoaded)}, load ${Math.round(t.nav.load)}`,
      `paints: ${t.paints.map(([n, v]) => `${n} ${v}`).join(', ')}`,
      `main thread until then (CDP): script ${Math.round((after.ScriptDuration - before.ScriptDuration) * 1000)} ms, layout ${Math.round((after.LayoutDuration - before.LayoutDuration) * 1000)} ms, style ${Math.round((after.RecalcStyleDuration - before.RecalcStyleDuration) * 1000)} ms, tasks ${Math.round((after.TaskDuration - before.TaskDuration) * 1000)} ms`,
      `long tasks (start+duration): ${t.longTasks.map(([s, d]) => `${s}+${d}`).join(' ') || 'none'}`,
      'long animation frames (start+duration: scripts of 5 ms or more):',
      ...t.frames.map((f) => `  ${f}`),
      'CPU profile until the first row, self time by chunk:',
      ...top(byChunk, 12),
      'and by function:',
      ...top(byFunction, 25),
      '', ' start   ttfb    end  server   KB  request',
    ];
    for (const r of t.res.sort((a, b) => a.start - b.start)) {
      const body = r.name.startsWith('/api/v1/') ? ` ${bodies.get(r.name)?.shift() ?? ''}` : '';
      lines.push(`${ms(r.start)} ${ms(r.ttfb)} ${ms(r.end)} ${ms(r.server)} ${String(Math.round(r.kb)).padStart(4)}  ${r.name}${body}`);
    }
    return lines.join('\n') + '\n';
  };
}

const traceDir = process.env.TRACE === '1' ? join(dirname(fileURLToPath(import.meta.url)), 'output') : null;

const browser = await launch();
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await signInByAPI(page, 'Bench Teacher', 'yeargroup@bench.test');
  for (const n of sizes) {
    const { id, importSeconds } = await importClass(page, n);
    const view = await ctx.newPage();
    const cdp = await ctx.newCDPSession(view);
    await cdp.send('Performance.enable');
    const finishTrace = traceDir ? await startTrace(view, cdp) : null;
    const t0 = Date.now();
    await view.goto(`${baseURL}/assignment/${id}`);
    await view.locator('table[aria-label="Submissions"] tbody tr').first().waitFor({ timeout: 120_000 });
    const firstRowMs = Date.now() - t0;
    if (finishTrace) {
      mkdirSync(traceDir, { recursive: true });
      const file = join(traceDir, `yeargroup-trace-${n}.txt`);
      writeFileSync(file, `class of ${n}: first row visible after ${firstRowMs} ms (playwright)\n${await finishTrace()}`);
      console.error(`trace: ${file}`);
    }
    await view.waitForLoadState('networkidle');
    const domNodes = await view.evaluate(() => document.querySelectorAll('*').length);
    await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;
    // One poll of the table as the page sends it (50 rows, the default sort), and the 304 after it.
    const poll = await view.evaluate(async (id) => {
      const { csrfToken } = await (await fetch('/api/auth/csrf')).json();
      const send = (etag) =>
        fetch('/api/v1/db/assignment/submission-rows', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken, ...(etag ? { 'If-None-Match': etag } : {}) },
          body: JSON.stringify({ assignmentId: id, offset: 0, limit: 50, sort: 'name', order: 'asc', status: 'all', search: '' }),
        });
      let t = performance.now();
      const first = await send();
      const bytes = (await first.text()).length;
      const ms = performance.now() - t;
      t = performance.now();
      const again = await send(first.headers.get('ETag'));
      return { bytes, ms, notModified: again.status, ms304: performance.now() - t };
    }, id);
    // Sorting by score happens in Go after scoring every result: one request.
    const scoreSort = await view.evaluate(async (id) => {
      const { csrfToken } = await (await fetch('/api/auth/csrf')).json();
      const t = performance.now();
      await fetch('/api/v1/db/assignment/submission-rows', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken },
        body: JSON.stringify({ assignmentId: id, sort: 'result', order: 'desc' }),
      });
      return performance.now() - t;
    }, id);
    console.log(JSON.stringify({ n, importSeconds, firstRowMs, domNodes, heapBytes: heap, pollBytes: poll.bytes, pollMs: poll.ms, poll304: poll.notModified, poll304Ms: poll.ms304, scoreSortMs: scoreSort }));
    await view.close();
  }
} finally {
  await browser.close();
}
