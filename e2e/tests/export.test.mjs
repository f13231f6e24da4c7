// Exporting results in a real browser against the real stack: a teacher grades a class with the
// demo model, then downloads its results as CSV and as Excel from the submissions toolbar ("Export"
// menu), all rows and the selected ones; each download is read and checked against the results the
// API shows, a formula-like student name stays text, and the menu is photographed at both widths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { apiCall, baseURL, checkA11y, DESKTOP, launch, outDir, PHONE, signInByAPI, toast, apiOK as ok, uploadTexts as upload, submissionRow as row } from '../browser.mjs';

const GRADE_TIMEOUT = 90_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** parseCSV reads RFC 4180 CSV (quoted fields, doubled quotes, CRLF). */
function parseCSV(text) {
  const rows = [];
  let rec = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      rec.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rec.push(field);
      rows.push(rec);
      rec = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || rec.length > 0) rows.push([...rec, field]);
  return rows;
}

/** unzipEntry reads one file of a ZIP (an XLSX) through its central directory. */
function unzipEntry(buf, name) {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, 'the XLSX is a ZIP file');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const entry = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (entry === name) {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const data = buf.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    p += 46 + nameLen + extra + comment;
  }
  throw new Error(`${name} is not in the XLSX`);
}

/** download picks a format in the Export menu and returns the downloaded file and its name. */
async function download(page, buttonName, format, { feedback = false } = {}) {
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  const box = page.getByRole('menuitemcheckbox', { name: 'Include feedback text' });
  if ((await box.getAttribute('aria-checked')) !== String(feedback)) await box.click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: format }).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), body: readFileSync(path) };
}

test('a graded class is exported as CSV and Excel from the submissions toolbar', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
  const page = await ctx.newPage();
  try {
    await signInByAPI(page, 'Ezra Export', 'ezra.export@school.test');
    const { assignment } = await ok(page, '/api/v1/db/assignment/put', { name: 'Plants quiz', type: 'grade', isHandWritten: false, provideInstantFeedback: false });
    const id = assignment._id;
    await ok(page, '/api/v1/db/function/put', {
      assignmentId: id,
      questions: [
        {
          questionText: 'How do plants make food?',
          context: '',
          rubricId: null,
          criteria: [
            { description: 'Mentions sunlight and photosynthesis', points: 2 },
            { description: 'Names carbon dioxide and water', points: 1 },
          ],
          subquestions: [
            { questionText: 'Where?', context: '', rubricId: null, criteria: [{ description: 'Chloroplasts in leaves', points: 1 }], subquestions: [] },
          ],
        },
      ],
    });
    const subs = await upload(page, id, {
      'ana.txt': 'Plants use sunlight for photosynthesis, taking in carbon dioxide and water in the chloroplasts of leaves.',
      'ben.txt': 'Plants eat soil.',
      'cy.txt': 'Photosynthesis needs sunlight.',
    });
    const names = { 'ana.txt': 'Ana Lima', 'ben.txt': '=HYPERLINK("http://x","y")', 'cy.txt': 'Cy Diaz' };
    for (const s of subs) {
      await ok(page, '/api/v1/db/submission/update', { submissionId: s._id, submission: { studentName: names[s.name], studentEmail: `${s.name.split('.')[0]}@pupils.test` } });
    }

    await page.goto(`${baseURL}/assignment/${id}`);
    for (const n of Object.keys(names)) await row(page, n).getByText('Ready', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });
    await page.getByRole('button', { name: 'Grade all' }).click();
    await toast(page, 'Grading submissions! This should take 1-2 minutes.');
    for (const n of Object.keys(names)) await row(page, n).getByText('Graded', { exact: true }).waitFor({ timeout: GRADE_TIMEOUT });

    // What the review screen's read says: the totals the export must carry.
    const data = await ok(page, '/api/v1/db/assignment/get', { assignmentId: id });
    const bySub = new Map(data.functionResults.map((r) => [r.submission, r]));
    const resultOf = (file) => bySub.get(subs.find((s) => s.name === file)._id);

    // The menu, photographed at both widths, opened beside its button.
    for (const [vp, w] of [[DESKTOP, 1280], [PHONE, 390]]) {
      await page.setViewportSize(vp);
      const button = page.getByRole('button', { name: 'Export', exact: true });
      await button.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await button.click();
      await page.getByRole('menuitem', { name: 'Excel (XLSX)' }).waitFor();
      await page.waitForTimeout(300);
      await checkA11y(page, `export-menu-${w}`);
      await page.screenshot({ path: join(outDir, `export-menu-${w}.png`) });
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });
    }
    await page.setViewportSize(DESKTOP);

    // CSV of the whole class, with the feedback text.
    const csv = await download(page, 'Export', 'CSV', { feedback: true });
    assert.equal(csv.name, 'Plants quiz - results.csv');
    assert.equal(csv.body.subarray(0, 3).toString('hex'), 'efbbbf', 'UTF-8 with a BOM');
    const rows = parseCSV(csv.body.toString('utf8').slice(1));
    const head = rows[0];
    const col = (h) => {
      const i = head.indexOf(h);
      assert.ok(i >= 0, `column ${h} in ${head.join(' | ')}`);
      return i;
    };
    assert.deepEqual(head.slice(0, 5), ['Student', 'Email', 'File', 'Source', 'Attempt']);
    for (const h of ['Q1 C1 Mentions sunlight and photosynthesis (met)', 'Q1 C1 Mentions sunlight and photosynthesis (points)', 'Q1 adjustment', 'Q1 feedback', 'Q1a C1 Chloroplasts in leaves (met)', 'Total', 'Maximum', 'Percentage', 'Status', 'Reviewed', 'Graded against an earlier version', 'Feedback']) col(h);
    assert.equal(rows.length, 4, 'a header and three rows');
    for (const r of rows.slice(1)) {
      const fr = resultOf(r[col('File')]);
      assert.equal(Number(r[col('Total')]), fr.totalPoints, `total of ${r[col('File')]}`);
      assert.equal(Number(r[col('Maximum')]), fr.maxPoints);
      assert.equal(Number(r[col('Percentage')]), Math.round((fr.totalPoints / fr.maxPoints) * 10000) / 100);
      assert.equal(r[col('Status')], fr.status);
      assert.equal(r[col('Reviewed')], 'no');
      assert.equal(r[col('Feedback')], fr.feedback.startsWith('=') || fr.feedback.startsWith('+') || fr.feedback.startsWith('-') || fr.feedback.startsWith('@') ? `'${fr.feedback}` : fr.feedback);
      const answers = typeof fr.answers === 'string' ? JSON.parse(fr.answers) : fr.answers;
      const met = answers[0].grade.criteria[0];
      assert.equal(r[col('Q1 C1 Mentions sunlight and photosynthesis (met)')], met ? '1' : '0');
      assert.equal(r[col('Q1 C1 Mentions sunlight and photosynthesis (points)')], met ? '2' : '0');
      assert.equal(r[col('Q1a C1 Chloroplasts in leaves (met)')], answers[0].subanswers[0].grade.criteria[0] ? '1' : '0');
    }
    const ben = rows.find((r) => r[col('File')] === 'ben.txt');
    assert.equal(ben[col('Student')], `'=HYPERLINK("http://x","y")`, 'a formula-like name stays text');

    // Two selected rows as Excel.
    await row(page, 'ana.txt').getByRole('checkbox').check();
    await row(page, 'ben.txt').getByRole('checkbox').check();
    const xlsx = await download(page, 'Export 2 selected', 'Excel (XLSX)');
    assert.equal(xlsx.name, 'Plants quiz - results.xlsx');
    const sheet = unzipEntry(xlsx.body, 'xl/worksheets/sheet1.xml');
    assert.ok(!/<f[ >]/.test(sheet), 'no formula in the sheet');
    assert.ok(sheet.includes('<pane') && sheet.includes('state="frozen"'), 'the header row is frozen');
    const xmlText = (x) => x.replace(/&#34;|&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const text = xmlText(sheet + (xlsx.body.includes('xl/sharedStrings.xml') ? unzipEntry(xlsx.body, 'xl/sharedStrings.xml') : ''));
    assert.ok(text.includes('Ana Lima'));
    assert.ok(text.includes(`'=HYPERLINK("http://x","y")`), 'the name is a text cell, escaped');
    assert.ok(!text.includes('Cy Diaz'), 'only the selected rows');
    const anaTotal = resultOf('ana.txt').totalPoints;
    assert.ok(new RegExp(`<c r="[A-Z]+[23]"[^>]*><v>${String(anaTotal).replace('.', '\\.')}</v></c>`).test(sheet), `Ana's total ${anaTotal} is a number cell`);

    // A refusal shows the server's message: the assignment is gone.
    await ok(page, '/api/v1/db/team/delete-assignment', { assignmentId: id });
    await page.getByRole('button', { name: 'Export 2 selected', exact: true }).click();
    await page.getByRole('menuitem', { name: 'CSV' }).click();
    await toast(page, 'Not found');
  } finally {
    await ctx.close();
  }
});
