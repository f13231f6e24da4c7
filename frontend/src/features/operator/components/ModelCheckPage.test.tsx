import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { TEST_CSRF_TOKEN } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { renderApp } from '../../../testing/test-utils';
import type { ModelCheckInfo, ModelCheckReport, ModelCheckResult } from '../api/model-check';

const INFO: ModelCheckInfo = {
  settings: { baseUrl: 'http://gpu.school.test:11434/v1', model: 'qwen2.5:7b-instruct', visionModel: '', mode: 'auto', priced: false, timeoutMs: 120000 },
  classSize: 30,
  limit: { runs: 10, windowSeconds: 3600 },
};

function result(task: string, extra: Partial<ModelCheckResult> = {}): ModelCheckResult {
  return {
    task, model: 'qwen2.5:7b-instruct', mode: 'json_object', valid: true, retried: false, answered: true, latencyMs: 2400,
    calls: 1, promptTokens: 950, cachedPromptTokens: 0, completionTokens: 120, classCost: null, ...extra,
  };
}

/** A provider that refuses json_schema: auto fell back to json_object; one task needed a retry, one failed. */
const REPORT: ModelCheckReport = {
  baseUrl: INFO.settings.baseUrl, model: INFO.settings.model, visionModel: '', mode: 'auto', classSize: 30, passed: false,
  firstError: "rubric-feedback: the model's answer did not follow the schema, twice (bad output): criterion 4 does not exist",
  advice:
    'the provider refused json_schema and automatic detection settled on json_object: set LLM_OUTPUT_MODE=json_object, so that a worker does not send a refused request first after each start',
  startedAt: '2026-11-27T19:00:00Z', durationMs: 14200,
  results: [
    result('grade', { classCost: 0.0163 }),
    result('feedback', { retried: true, calls: 2, latencyMs: 850, note: 'the first answer did not fit (answer is not JSON); the retry did' }),
    result('rubric-feedback', { valid: false, error: "the model's answer did not follow the schema, twice (bad output): criterion 4 does not exist" }),
    result('prompt', { valid: false, answered: false, mode: '', promptTokens: 0, completionTokens: 0, error: 'nothing answers at http://gpu.school.test:11434/v1' }),
    { ...result('handwriting'), skipped: 'LLM_VISION_MODEL is not set' },
  ],
};

/** The operator API: the settings, and a check that takes a moment; records what each run sent. */
function operatorServer() {
  const runs: { body: unknown; csrf: string | null }[] = [];
  server.use(
    http.get('/api/v1/operator/model-check', () => HttpResponse.json({ data: INFO })),
    http.post('/api/v1/operator/model-check', async ({ request }) => {
      runs.push({ body: await request.json(), csrf: request.headers.get('X-CSRF-Token') });
      await delay(150);
      return HttpResponse.json({ data: { report: REPORT } });
    }),
  );
  return runs;
}

describe('provider check page', () => {
  it('runs the check with a progress bar and shows each task, its mode and its error in plain words', async () => {
    const runs = operatorServer();
    const user = userEvent.setup();
    renderApp('/admin/model-check');

    expect(await screen.findByRole('heading', { level: 1, name: 'Provider check' })).toBeInTheDocument();
    expect(document.title).toBe('Provider check · Markwell');
    expect(screen.getByText('http://gpu.school.test:11434/v1')).toBeInTheDocument();
    expect(screen.getByText('not set: the handwritten page is skipped')).toBeInTheDocument();
    expect(screen.getByText(/Sends 4 short tasks/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Run the check' }));
    expect(await screen.findByRole('progressbar', { name: 'Running the provider check' })).toBeInTheDocument();
    expect(screen.getByText(/Sending 4 tasks to http:\/\/gpu.school.test:11434\/v1/)).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: 'Tasks' });
    expect(screen.queryByRole('progressbar', { name: 'Running the provider check' })).not.toBeInTheDocument();
    const rows = within(table).getAllByRole('row').map((row) => within(row).queryAllByRole('cell').map((c) => c.textContent));
    expect(rows.slice(1)).toEqual([
      ['Grade (2 questions)', 'json_object', 'yes', '2.4 s', '950', '0', '120', '$0.0163'],
      ['Feedback (highlighters)', 'json_object', 'yes, after a retry', '850 ms', '950', '0', '120', 'not priced'],
      ['Rubric feedback (3 criteria)', 'json_object', 'no', '2.4 s', '950', '0', '120', 'not priced'],
      ['Prompt', '—', 'no answer', '2.4 s', '0', '0', '0', 'not priced'],
      ['Handwritten page', 'Skipped: LLM_VISION_MODEL is not set'],
    ]);
    expect(screen.getByText(/automatic detection settled on json_object: set LLM_OUTPUT_MODE=json_object/)).toBeInTheDocument();
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent("2 of 4 tasks failed. First error: rubric-feedback: the model's answer did not follow the schema");
    const messages = within(screen.getByRole('list', { name: 'Errors and notes' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(messages).toEqual([
      'Feedback (highlighters): the first answer did not fit (answer is not JSON); the retry did',
      "Rubric feedback (3 criteria): the model's answer did not follow the schema, twice (bad output): criterion 4 does not exist",
      'Prompt: nothing answers at http://gpu.school.test:11434/v1',
    ]);
    expect(runs).toEqual([{ body: {}, csrf: TEST_CSRF_TOKEN }]);
  });

  it('checks the mode the operator picks', async () => {
    const runs = operatorServer();
    const user = userEvent.setup();
    renderApp('/admin/model-check');
    await user.click(await screen.findByRole('combobox', { name: 'Mode to check' }));
    await user.click(screen.getByRole('option', { name: /^prompt:/ }));
    await user.click(screen.getByRole('button', { name: 'Run the check' }));
    await screen.findByRole('table', { name: 'Tasks' });
    expect(runs.map((r) => r.body)).toEqual([{ mode: 'prompt' }]);
  });

  it('says a refusal of the run in the server’s words', async () => {
    operatorServer();
    server.use(
      http.post('/api/v1/operator/model-check', () =>
        HttpResponse.json({ error: { code: 'rate_limited', message: 'The provider check has run 10 times this hour: each run spends tokens. Please wait and try again.' } }, { status: 429 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/admin/model-check');
    await user.click(await screen.findByRole('button', { name: 'Run the check' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The provider check has run 10 times this hour');
    expect(screen.queryByRole('table', { name: 'Tasks' })).not.toBeInTheDocument();
  });

  it('is not found for anyone but an operator', async () => {
    server.use(http.get('/api/v1/operator/model-check', () => HttpResponse.json({ error: { code: 'not_found', message: 'Not found' } }, { status: 404 })));
    renderApp('/admin/model-check');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run the check' })).not.toBeInTheDocument();
  });
});
