// The browser suite: start a stack on free ports, run tests/*.test.mjs with
// node's test runner against it, stop the stack. Screenshots and logs go to
// e2e/output/ (not committed).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startStack } from './stack.mjs';

const here = import.meta.dirname;
const outDir = resolve(here, 'output');
mkdirSync(outDir, { recursive: true });

const adminURL = process.env.TEST_DATABASE_URL;
if (!adminURL) {
  console.error('e2e: TEST_DATABASE_URL is not set; run `make test`');
  process.exit(2);
}

// E2E_ONLY=submissions runs only the test files whose name contains it (E2E_ONLY=auth,csp: either).
// E2E_CONCURRENCY=1 runs one test file at a time (the default runs two at once: each file signs
// up teachers of its own, so files do not see each other's data; docs/performance.md, "How long make test takes").
const only = process.env.E2E_ONLY ?? '';
const wanted = only.split(',');
const files = readdirSync(join(here, 'tests'))
  .filter((f) => f.endsWith('.test.mjs') && wanted.some((w) => f.includes(w)))
  .map((f) => join(here, 'tests', f));
if (files.length === 0) {
  console.error(`e2e: no test file matches E2E_ONLY=${only}`);
  process.exit(2);
}

const concurrency = Number(process.env.E2E_CONCURRENCY ?? 2);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`e2e: E2E_CONCURRENCY=${process.env.E2E_CONCURRENCY} is not a whole number of at least 1`);
  process.exit(2);
}

const stack = await startStack({ adminURL, outDir });
let code = 1;
try {
  code = await new Promise((ok) => {
    const p = spawn(process.execPath, [
      '--test',
      `--test-concurrency=${concurrency}`,
      // Besides the usual report on stdout, each test's duration in e2e/output/results.tap.
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${join(outDir, 'results.tap')}`,
      ...files,
    ], {
      stdio: 'inherit',
      env: { ...process.env, BASE_URL: stack.baseURL, METRICS_URL: stack.metricsURL, E2E_OUTPUT: outDir },
    });
    p.on('exit', (c) => ok(c ?? 1));
  });
} finally {
  if (code !== 0) reportJobs();
  await stack.stop();
}
if (code !== 0) reportLogs();
process.exit(code);

// reportJobs prints, after a failed run, what the worker had not finished: the jobs not
// completed (a submission stuck in reading or grading shows here with its state and latest
// error) and the submissions whose reading had not ended.
function reportJobs() {
  const reports = [
    {
      what: 'jobs not completed at the end of the run',
      columns: 'id|kind|queue|state|attempt|attempted at|latest error',
      sql: `SELECT id, kind, queue, state, attempt, attempted_at, coalesce(left(errors[array_length(errors, 1)]->>'error', 300), '')
              FROM river_job WHERE state <> 'completed' ORDER BY id`,
    },
    {
      what: 'submissions not read (yet)',
      columns: 'id|name|status|error',
      sql: `SELECT id, left(name, 80), extract_status, left(extract_error, 200)
              FROM submissions WHERE extract_status <> 'ready' ORDER BY created_at`,
    },
  ];
  for (const { what, columns, sql } of reports) {
    try {
      const lines = stack.query(sql).split('\n').filter(Boolean);
      console.log(`# e2e: ${lines.length} ${what}${lines.length ? ` (${columns}):` : ''}`);
      for (const l of lines.slice(-60)) console.log(`#   ${l}`);
    } catch (err) {
      console.log(`# e2e: could not list the ${what}: ${err.message}`);
    }
  }
}

// reportLogs prints, after a failed run, what the stack itself said went wrong: the
// warnings and errors of the API and the worker, and the worker's last lines. CI keeps
// only standard output, and e2e/output/ is gone with its machine.
function reportLogs() {
  for (const name of ['api', 'worker']) {
    const file = join(outDir, `${name}.log`);
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const bad = lines.filter((l) => /"level":"(WARN|ERROR)"/.test(l));
    console.log(`# e2e: ${name}.log: ${lines.length} lines, ${bad.length} warnings or errors${bad.length ? ', the last 40:' : ''}`);
    for (const l of bad.slice(-40)) console.log(`#   ${l.slice(0, 400)}`);
    if (name === 'worker') {
      console.log('# e2e: worker.log, its last 30 lines:');
      for (const l of lines.slice(-30)) console.log(`#   ${l.slice(0, 400)}`);
    }
  }
}
