import { api } from '../../../lib/api-client';

/** A structured-output mode (LLM_OUTPUT_MODE). */
export type OutputMode = 'auto' | 'json_schema' | 'json_object' | 'prompt';

/** What the check runs against (`GET /api/v1/operator/model-check`). */
export interface ModelCheckSettings {
  baseUrl: string;
  model: string;
  /** Empty when LLM_VISION_MODEL is not set: the handwritten page is skipped. */
  visionModel: string;
  mode: OutputMode;
  /** Whether LLM_PRICES prices the model. */
  priced: boolean;
  timeoutMs: number;
}

/** The settings with the class the cost is for and the check's rate limit. */
export interface ModelCheckInfo {
  settings: ModelCheckSettings;
  classSize: number;
  limit: { runs: number; windowSeconds: number };
}

/** One task of a check (internal/modelcheck Result). */
export interface ModelCheckResult {
  task: string;
  /** Why the task did not run, when it did not. */
  skipped?: string;
  model: string;
  /** The mode that worked; empty when the provider never answered. */
  mode: OutputMode | '';
  valid: boolean;
  retried: boolean;
  answered: boolean;
  latencyMs: number;
  calls: number;
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
  /** US dollars for the class; null when LLM_PRICES does not price the model. */
  classCost: number | null;
  /** The error in plain words. */
  error?: string;
  /** The error as the server logs it. */
  detail?: string;
  note?: string;
}

/** A check's report (internal/modelcheck Report). */
export interface ModelCheckReport {
  baseUrl: string;
  model: string;
  visionModel: string;
  mode: OutputMode;
  classSize: number;
  results: ModelCheckResult[];
  passed: boolean;
  firstError?: string;
  /** The setting to make when automatic detection settled on another mode than json_schema. */
  advice?: string;
  startedAt: string;
  durationMs: number;
}

/** Query keys of the operator pages. */
export const operatorKeys = {
  modelCheck: ['operator', 'model-check'] as const,
};

/** The check's settings; 404 for anyone who is not an operator. */
export async function getModelCheckInfo(signal?: AbortSignal): Promise<ModelCheckInfo> {
  return api.get<ModelCheckInfo>('/api/v1/operator/model-check', { signal });
}

/** Runs the check (seconds to minutes) in `mode`, or the configured mode when none is given. */
export async function runModelCheck(mode?: OutputMode): Promise<ModelCheckReport> {
  const data = await api.post<{ report: ModelCheckReport }>('/api/v1/operator/model-check', mode ? { mode } : {});
  return data.report;
}
