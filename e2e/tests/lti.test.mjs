// Markwell inside an LMS (docs/lti.md), in a real browser against the real
// stack. A small LTI 1.3 platform runs in this test (node's http and crypto:
// its own RSA key, JWKS, OIDC auth endpoint, token endpoint and AGS line
// items and scores). The teacher adds an assignment by deep linking (the
// picker page), a pupil launched from the course submits on the student
// page with the name and email of their launch, the teacher grades and
// releases, and the score arrives at the platform's gradebook.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiOK as ok, baseURL, DESKTOP, launch, shot, shotBoth, signInByAPI } from '../browser.mjs';

const GRADE_TIMEOUT = 120_000;
const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const fromB64 = (s) => JSON.parse(Buffer.from(s, 'base64url').toString());

/** startPlatform runs the test LMS on a free port. */
async function startPlatform() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'e2e-platform-1', alg: 'RS256', use: 'sig' };
  const p = { clientId: 'markwell-e2e', scores: [], lineItems: [], deepLinks: [], nextLaunch: null };
  const jwt = (claims) => {
    const head = b64({ alg: 'RS256', typ: 'JWT', kid: jwk.kid });
    const body = b64(claims);
    return `${head}.${body}.${rsaSign('sha256', Buffer.from(`${head}.${body}`), privateKey).toString('base64url')}`;
  };
  const readBody = (req) => new Promise((ok) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => ok(data));
  });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, p.url);
    const json = (v) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(v));
    };
    if (req.method === 'GET' && url.pathname === '/jwks') return json({ keys: [jwk] });
    if (req.method === 'GET' && url.pathname === '/start') {
      // The course page's link: third-party initiated login at Markwell.
      const q = new URLSearchParams({ iss: p.url, login_hint: p.nextLaunch.sub, client_id: p.clientId, target_link_uri: `${baseURL}/api/lti/launch` });
      res.writeHead(302, { Location: `${baseURL}/api/lti/login?${q}` });
      return res.end();
    }
    if (req.method === 'GET' && url.pathname === '/course') {
      // A course page that embeds the tool in an iframe, as many LMSs do.
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end('<!doctype html><html lang="en"><title>Year 8 Science</title><h1>Year 8 Science</h1><iframe title="Markwell" src="/start" width="800" height="500"></iframe>');
    }
    if (req.method === 'GET' && url.pathname === '/auth') {
      // The platform's OIDC auth endpoint: an auto-submitting form post of the id_token.
      const now = Math.floor(Date.now() / 1000);
      const l = p.nextLaunch;
      const claims = {
        iss: p.url, aud: p.clientId, sub: l.sub, nonce: url.searchParams.get('nonce'), iat: now, exp: now + 300,
        name: l.name, email: l.email,
        'https://purl.imsglobal.org/spec/lti/claim/message_type': l.messageType,
        'https://purl.imsglobal.org/spec/lti/claim/version': '1.3.0',
        'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'dep-e2e',
        'https://purl.imsglobal.org/spec/lti/claim/roles': [l.role],
        'https://purl.imsglobal.org/spec/lti/claim/context': { id: 'course-e2e', title: 'Year 8 Science' },
        'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
          scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/lineitem', 'https://purl.imsglobal.org/spec/lti-ags/scope/score'],
          lineitems: `${p.url}/lineitems`,
        },
        ...(l.messageType === 'LtiDeepLinkingRequest'
          ? { 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': { deep_link_return_url: `${p.url}/deep-return`, accept_types: ['ltiResourceLink'] } }
          : { 'https://purl.imsglobal.org/spec/lti/claim/resource_link': { id: 'rl-e2e' }, 'https://purl.imsglobal.org/spec/lti/claim/custom': l.custom }),
      };
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end(`<!doctype html><form method="post" action="${url.searchParams.get('redirect_uri')}">
<input type="hidden" name="id_token" value="${jwt(claims)}"><input type="hidden" name="state" value="${url.searchParams.get('state')}">
</form><script>document.forms[0].submit()</script>`);
    }
    if (req.method === 'POST' && url.pathname === '/deep-return') {
      const form = new URLSearchParams(await readBody(req));
      p.deepLinks.push(fromB64(form.get('JWT').split('.')[1]));
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end('<!doctype html><h1>Added to your course</h1>');
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(await readBody(req));
      const assertion = fromB64(form.get('client_assertion').split('.')[1]);
      assert.equal(assertion.iss, p.clientId);
      return json({ access_token: 'e2e-token', token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname === '/lineitems' && req.method === 'GET') return json([]);
    if (url.pathname === '/lineitems' && req.method === 'POST') {
      const li = { ...JSON.parse(await readBody(req)), id: `${p.url}/lineitems/1` };
      p.lineItems.push(li);
      return json(li);
    }
    if (url.pathname === '/lineitems/1/scores' && req.method === 'POST') {
      assert.equal(req.headers.authorization, 'Bearer e2e-token');
      p.scores.push(JSON.parse(await readBody(req)));
      return json({});
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  p.url = `http://127.0.0.1:${server.address().port}`;
  p.close = () => new Promise((ok) => server.close(ok));
  return p;
}

let browser;
let platform;
before(async () => {
  browser = await launch();
  platform = await startPlatform();
});
after(async () => {
  await browser?.close();
  await platform?.close();
});

test('a pupil launched from the LMS submits; the teacher grades and releases; the score reaches the gradebook', async () => {
  // The operator registers the platform.
  const ops = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signInByAPI(ops, 'Olu Ops', 'ops.e2e@school.test');
  await ok(ops, '/api/v1/operator/lti/platforms', {
    name: 'E2E LMS', issuer: platform.url, clientId: platform.clientId, deploymentIds: ['dep-e2e'],
    authLoginUrl: `${platform.url}/auth`, tokenUrl: `${platform.url}/token`, jwksUrl: `${platform.url}/jwks`,
  });

  // The teacher adds Markwell to the course (deep linking) and is signed in from the launch.
  const teacher = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  platform.nextLaunch = { sub: 'teacher-e2e', name: 'Tara Teacher', email: 'tara.lti@school.test', role: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor', messageType: 'LtiDeepLinkingRequest' };
  await teacher.goto(`${platform.url}/start`);
  await teacher.getByRole('heading', { name: 'Add an assignment to E2E LMS' }).waitFor();
  const { assignment } = await ok(teacher, '/api/v1/db/assignment/put', { name: 'Plants quiz', type: 'grade', isHandWritten: false, provideInstantFeedback: false });
  const id = assignment._id;
  await ok(teacher, '/api/v1/db/function/put', {
    assignmentId: id,
    questions: [{ questionText: 'How do plants make food?', context: '', rubricId: null, subquestions: [],
      criteria: [{ description: 'Mentions sunlight and photosynthesis', points: 2 }, { description: 'Names carbon dioxide and water', points: 1 }] }],
  });
  await teacher.reload();
  await teacher.getByRole('button', { name: 'Plants quiz' }).waitFor();
  await shotBoth(teacher, 'lti-deep-link-picker');
  await teacher.getByRole('button', { name: 'Plants quiz' }).click();
  await teacher.getByRole('heading', { name: 'Added to your course' }).waitFor();
  assert.equal(platform.deepLinks.length, 1);
  const item = platform.deepLinks[0]['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'][0];
  assert.equal(item.type, 'ltiResourceLink');
  assert.equal(item.title, 'Plants quiz');
  assert.equal(item.url, `${baseURL}/api/lti/launch`);
  // Back in Markwell (the page now shows the platform), for the API calls below.
  await teacher.goto(`${baseURL}/assignment/${id}`);

  // The pupil opens it from the course: the student page, their name and email from the launch.
  const pupil = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  platform.nextLaunch = { sub: 'pupil-e2e', name: 'Pia Pupil', email: 'pia@pupils.test', role: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner', messageType: 'LtiResourceLinkRequest', custom: item.custom };
  await pupil.goto(`${platform.url}/start`);
  await pupil.getByRole('heading', { name: 'Plants quiz' }).waitFor();
  const name = pupil.getByLabel('Your name');
  await pupil.waitForFunction(() => document.querySelector('input[autocomplete="name"]')?.value === 'Pia Pupil');
  assert.equal(await name.isDisabled(), true, 'the name comes from the launch');
  assert.equal(await pupil.getByLabel('Your email').inputValue(), 'pia@pupils.test');
  const dir = mkdtempSync(join(tmpdir(), 'lti-e2e-'));
  const file = join(dir, 'pia.txt');
  writeFileSync(file, 'Plants use sunlight for photosynthesis, taking in carbon dioxide and water.');
  await pupil.locator('input[type="file"]').setInputFiles(file);
  await shotBoth(pupil, 'lti-pupil-submit');
  await pupil.getByRole('button', { name: 'Submit' }).click();
  await pupil.waitForURL(/\/success$/);

  // Another pupil's LMS embeds the activity in an iframe: Markwell does not
  // run framed, so the frame offers a new tab, where the launch goes on.
  const framedCtx = await browser.newContext({ viewport: DESKTOP });
  const course = await framedCtx.newPage();
  platform.nextLaunch = { ...platform.nextLaunch, sub: 'pupil-e2e-2', name: 'Ivo Inframe', email: 'ivo@pupils.test' };
  await course.goto(`${platform.url}/course`);
  const open = course.frameLocator('iframe').getByRole('link', { name: 'Open Markwell in a new tab' });
  await open.waitFor();
  await shot(course, 'lti-framed-new-tab');
  const [tab] = await Promise.all([framedCtx.waitForEvent('page'), open.click()]);
  await tab.getByRole('heading', { name: 'Plants quiz' }).waitFor();
  await tab.waitForFunction(() => document.querySelector('input[autocomplete="name"]')?.value === 'Ivo Inframe');

  // The teacher grades and releases.
  let sub;
  const deadline = Date.now() + GRADE_TIMEOUT;
  while (!sub && Date.now() < deadline) {
    const data = await ok(teacher, '/api/v1/db/assignment/get', { assignmentId: id });
    sub = data.submissions.find((s) => s.studentName === 'Pia Pupil' && s.status === 'ready');
    if (!sub) await teacher.waitForTimeout(1000);
  }
  assert.ok(sub, 'the pupil\'s work was read');
  assert.equal(sub.studentEmail, 'pia@pupils.test');
  await ok(teacher, '/api/v1/lambda/runFunctionOnMany', { assignmentId: id, submissionIds: [sub._id] });
  let graded;
  while (!graded && Date.now() < deadline) {
    const data = await ok(teacher, '/api/v1/db/assignment/get', { assignmentId: id });
    graded = data.functionResults.find((r) => r.submission === sub._id && r.status === 'graded');
    if (!graded) await teacher.waitForTimeout(1000);
  }
  assert.ok(graded, 'graded');
  await ok(teacher, '/api/v1/db/assignment/release', { assignmentId: id, submissionIds: [sub._id], sendEmail: false });

  // The lti_score job posts the score to the platform.
  while (platform.scores.length === 0 && Date.now() < deadline) await teacher.waitForTimeout(500);
  assert.equal(platform.scores.length, 1, 'the score arrived at the platform');
  const score = platform.scores[0];
  assert.equal(score.userId, 'pupil-e2e');
  assert.equal(score.scoreMaximum, 3);
  assert.equal(score.scoreGiven, graded.totalPoints);
  assert.equal(score.activityProgress, 'Completed');
  assert.equal(score.gradingProgress, 'FullyGraded');
  assert.match(score.comment, /^Your feedback: http/);
  assert.equal(platform.lineItems[0].label, 'Plants quiz');

  await teacher.goto(`${baseURL}/assignment/${id}`);
  await teacher.getByText('Course gradebook (LTI)').waitFor();
  await teacher.getByText('Pia Pupil — In the gradebook', { exact: false }).waitFor();
  await shotBoth(teacher, 'lti-gradebook-status');
});
