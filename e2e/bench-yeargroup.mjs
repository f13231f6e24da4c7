// The year-group figures of `make bench` (cmd/bench/yeargroup.go): a grade
// assignment of N submissions imported from a CSV as the UI does, then its page
// opened in Chromium: time to the first table row, DOM nodes, JS heap, and the
// bytes of one poll. Prints one JSON object per size on stdout.
// BASE_URL: a running stack; SIZES: comma-separated class sizes.
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
    const t0 = Date.now();
    await view.goto(`${baseURL}/assignment/${id}`);
    await view.locator('table[aria-label="Submissions"] tbody tr').first().waitFor({ timeout: 120_000 });
    const firstRowMs = Date.now() - t0;
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
