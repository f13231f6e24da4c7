/**
 * How a page's text was obtained, as `submission/get` reports it per page: `file` (the file's own text:
 * a PDF's text layer, Word or PowerPoint), `pdftotext` (a PDF's text layer read by poppler), `ocr`
 * (recognised in the page's image, with tesseract's confidence) or `vision` (handwriting transcribed by
 * the AI model); '' for a page without text.
 */
export interface PageQuality {
  source: string;
  /** OCR's confidence in the page's text (0–100), when OCR read it. */
  confidence: number | null;
  /** Why the page's text may be misread, for the teacher; '' when it may not. */
  warning: string;
}

/** A teacher's words for how a page's text was obtained ("Text layer", "OCR 87%"), or '' when unknown. */
export function pageSourceLabel(page: Pick<PageQuality, 'source' | 'confidence'>): string {
  switch (page.source) {
    case 'file':
    case 'pdftotext':
    case 'text-layer':
      return 'Text layer';
    case 'ocr':
      return page.confidence === null ? 'OCR' : `OCR ${page.confidence}%`;
    case 'vision':
      return 'Read by AI from handwriting';
    default:
      return '';
  }
}

/** Reads one page's quality from what the server sent. */
export function normalizePageQuality(raw: Record<string, unknown>): PageQuality {
  return {
    source: typeof raw.source === 'string' ? raw.source : '',
    confidence: typeof raw.confidence === 'number' && Number.isFinite(raw.confidence) ? raw.confidence : null,
    warning: typeof raw.warning === 'string' ? raw.warning : '',
  };
}
