import type { WorkflowField } from '../api/types';

/** A form's answers, by field name. */
export type WorkflowAnswers = Record<string, string>;

/** An empty answer for every field. */
export function emptyAnswers(fields: WorkflowField[]): WorkflowAnswers {
  return Object.fromEntries(fields.map((field) => [field.name, '']));
}

/** The names of the required fields left empty (blank counts as empty). */
export function missingFields(fields: WorkflowField[], answers: WorkflowAnswers): string[] {
  return fields.filter((field) => field.required && (answers[field.name] ?? '').trim() === '').map((field) => field.name);
}

/**
 * What the workflow run sends: each answered field, trimmed and cut to its limit; empty optional
 * fields are left out.
 */
export function workflowInputs(fields: WorkflowField[], answers: WorkflowAnswers): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const field of fields) {
    const value = (answers[field.name] ?? '').trim();
    if (value === '') continue;
    inputs[field.name] = field.maxLength > 0 ? value.slice(0, field.maxLength) : value;
  }
  return inputs;
}
