// Starts a throwaway Markwell stack (demo model, API, worker) on free ports
// against a fresh database, and stops it again.
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, '.data', 'bin', name);

/** freePort asks the kernel for an unused loopback port. */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

function psql(adminURL, sql) {
  const u = new URL(adminURL);
  u.pathname = '/postgres';
  execFileSync('psql', [u.toString(), '-qtAc', sql], { stdio: 'pipe' });
}

async function waitReady(url, proc, logFile) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`process exited early; see ${logFile}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} not ready after 60s; see ${logFile}`);
}

/**
 * startStack runs fakellm, api and worker; returns {baseURL, stop()}.
 * @param {{adminURL: string, outDir: string}} opts
 */
export async function startStack({ adminURL, outDir }) {
  const dbName = `markwell_e2e_${randomBytes(5).toString('hex')}`;
  psql(adminURL, `CREATE DATABASE ${dbName}`);
  const dbURL = new URL(adminURL);
  dbURL.pathname = `/${dbName}`;

  const [apiPort, llmPort, workerPort, metricsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const blobDir = mkdtempSync(join(tmpdir(), 'markwell-e2e-blobs-'));
  const baseURL = `http://127.0.0.1:${apiPort}`;
  const env = {
    ...process.env,
    APP_ENV: 'development',
    DATABASE_URL: dbURL.toString(),
    SECRET_KEY: randomBytes(32).toString('hex'),
    HTTP_ADDR: `127.0.0.1:${apiPort}`,
    PUBLIC_URL: baseURL,
    STATIC_DIR: join(root, 'frontend', 'dist'),
    BLOB_DIR: blobDir,
    LLM_BASE_URL: `http://127.0.0.1:${llmPort}/v1`,
    DEMO_MODEL: 'true',
    DEV_SIGNIN: 'true',
    // The operator of the provider check's test (model-check.test.mjs).
    OPERATOR_EMAILS: 'ops.e2e@school.test',
    WORKER_ADDR: `127.0.0.1:${workerPort}`,
    METRICS_ADDR: `127.0.0.1:${metricsPort}`,
    // The suite signs in dozens of times from one address: raise the limits.
    SIGNIN_RATE_LIMIT: '10000/1m',
    AI_RATE_LIMIT_TEACHER: '10000/1m',
    AI_RATE_LIMIT_TEAM: '100000/24h',
    AI_TOKEN_LIMIT_TEACHER: 'off',
    AI_TOKEN_LIMIT_TEAM: 'off',
    STUDENT_RATE_LIMIT_LINK: '100000/1h',
    STUDENT_RATE_LIMIT_ADDR: '100000/1h',
    STUDENT_RATE_LIMIT_LINK_MAX: '0',
    STUDENT_RATE_LIMIT_SUBMITTER: 'off',
    STUDENT_RATE_LIMIT_STUDENT: 'off',
    LOG_LEVEL: 'info',
    // The LTI test's platform (lti.test.mjs) is a local http:// server.
    LTI_ALLOW_INSECURE_URLS: 'true',
  };
  const procs = [];
  const run = async (name, args, readyURL) => {
    const logFile = join(outDir, `${name}.log`);
    const fd = openSync(logFile, 'a');
    const p = spawn(bin(name), args, { env, stdio: ['ignore', fd, fd] });
    procs.push(p);
    if (readyURL) await waitReady(readyURL, p, logFile);
    return p;
  };
  try {
    await run('fakellm', ['--addr', `127.0.0.1:${llmPort}`], `http://127.0.0.1:${llmPort}/healthz`);
    await run('api', [], `${baseURL}/readyz`);
    await run('worker', [], `http://127.0.0.1:${workerPort}/healthz`);
  } catch (err) {
    await stopAll(procs);
    throw err;
  }

  return {
    baseURL,
    metricsURL: `http://127.0.0.1:${metricsPort}/metrics`,
    /** Runs one SQL statement on the stack's database; its rows as text, one per line, columns split by `|` (psql -tA). */
    query(sql) {
      return execFileSync('psql', [dbURL.toString(), '-qtAc', sql], { encoding: 'utf8' });
    },
    async stop() {
      await stopAll(procs);
      rmSync(blobDir, { recursive: true, force: true });
      try {
        psql(adminURL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } catch (err) {
        console.error('e2e: drop database:', err.message);
      }
    },
  };
}

async function stopAll(procs) {
  await Promise.all(
    procs.map(
      (p) =>
        new Promise((ok) => {
          if (p.exitCode !== null) return ok();
          const t = setTimeout(() => p.kill('SIGKILL'), 15_000);
          p.on('exit', () => {
            clearTimeout(t);
            ok();
          });
          p.kill('SIGTERM');
        }),
    ),
  );
}
