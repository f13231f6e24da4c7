import { api } from './api-client';

/**
 * A submission's original file as the review screen shows it beside its text
 * (`POST db/submission/original/get`): PDF pages, photos, and Word and PowerPoint files (converted
 * by the server) as page images; a text file's original is its text; a CSV row has none.
 */
export interface Original {
  kind: 'pages' | 'text' | 'none';
  /** pdf, png, jpeg, docx, pptx, text; '' without a file. */
  format: string;
  /** The name the file downloads as. */
  fileName: string;
  pageCount: number;
  /** Word and PowerPoint pages are the server's rendering of the file. */
  converted: boolean;
  /** Per page: OCR read it with low confidence, so its text is worth checking against the page. */
  pages: { number: number; check: boolean; confidence: number | null }[];
  /** Why the file is not shown as pages. */
  problem: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the server's original, with every field present. */
export function normalizeOriginal(value: unknown): Original {
  const o = isObject(value) ? value : {};
  const kind = o.kind === 'pages' || o.kind === 'text' ? o.kind : 'none';
  const pages = Array.isArray(o.pages) ? o.pages.filter(isObject) : [];
  return {
    kind,
    format: typeof o.format === 'string' ? o.format : '',
    fileName: typeof o.fileName === 'string' ? o.fileName : '',
    pageCount: typeof o.pageCount === 'number' ? o.pageCount : 0,
    converted: o.converted === true,
    pages: pages.map((p, i) => ({
      number: typeof p.number === 'number' ? p.number : i + 1,
      check: p.check === true,
      confidence: typeof p.confidence === 'number' ? p.confidence : null,
    })),
    problem: typeof o.problem === 'string' ? o.problem : '',
  };
}

/** Fetches a submission's original (a Word or PowerPoint file is converted the first time: seconds). */
export async function getOriginal(submissionId: string, options: { signal?: AbortSignal } = {}): Promise<Original> {
  const data = await api.post<{ original?: unknown }>('/api/v1/db/submission/original/get', { submissionId }, options);
  return normalizeOriginal(data?.original);
}

/** A short-lived signed URL of one page (0-based) of a submission's original. */
export async function getOriginalPage(submissionId: string, page: number, options: { signal?: AbortSignal } = {}): Promise<string> {
  const data = await api.post<{ url?: string }>('/api/v1/db/submission/original/page', { submissionId, page }, options);
  if (!data?.url) throw new Error('The server sent no page');
  return data.url;
}

/**
 * Downloads a submission's file under its name: the server signs a download URL (Content-Disposition
 * attachment), which the browser then follows without leaving the page.
 */
export async function downloadOriginal(submissionId: string): Promise<string> {
  const data = await api.post<{ url?: string; fileName?: string }>('/api/v1/db/submission/original/download', { submissionId });
  if (!data?.url) throw new Error('The server sent no download');
  const link = document.createElement('a');
  link.href = data.url;
  link.download = data.fileName ?? '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  return data.fileName ?? '';
}
