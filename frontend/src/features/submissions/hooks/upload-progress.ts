/** Where one file of an upload batch stands. */
export type UploadItemStatus = 'waiting' | 'uploading' | 'uploaded' | 'failed';

/** One file of an upload batch. */
export interface UploadItem {
  id: number;
  name: string;
  status: UploadItemStatus;
  /** Bytes sent so far, as a fraction 0–1. */
  progress: number;
  /** Why it failed, in the server's words when it gave some. */
  error?: string;
  /** Where the file now lives, once uploaded. */
  location?: string;
}

/**
 * The upload progress counters (spec §4: "from start through one increment per file to
 * finish") and the files of the batch.
 */
export interface UploadProgress {
  /** idle → uploading → saving (recording the uploaded files) → done, or save-failed. */
  phase: 'idle' | 'uploading' | 'saving' | 'done' | 'save-failed';
  total: number;
  /** Files finished, whether uploaded or failed. */
  completed: number;
  items: UploadItem[];
  /** Why recording the uploaded files failed. */
  saveError?: string;
}

/** Every change the upload counters go through. */
export type UploadAction =
  | { type: 'start'; items: UploadItem[] }
  | { type: 'progress'; id: number; progress: number }
  | { type: 'uploading'; id: number }
  | { type: 'increment'; id: number; location?: string; error?: string }
  | { type: 'saving' }
  | { type: 'finish' }
  | { type: 'save-failed'; error: string }
  | { type: 'reset' };

/** No batch. */
export const IDLE: UploadProgress = { phase: 'idle', total: 0, completed: 0, items: [] };

function updateItem(state: UploadProgress, id: number, change: Partial<UploadItem>): UploadItem[] {
  return state.items.map((item) => (item.id === id ? { ...item, ...change } : item));
}

/** The upload counters' reducer. */
export function uploadReducer(state: UploadProgress, action: UploadAction): UploadProgress {
  switch (action.type) {
    case 'start':
      return { phase: 'uploading', total: action.items.length, completed: 0, items: action.items };
    case 'uploading':
      return { ...state, items: updateItem(state, action.id, { status: 'uploading' }) };
    case 'progress':
      return { ...state, items: updateItem(state, action.id, { progress: action.progress }) };
    case 'increment':
      return {
        ...state,
        completed: state.completed + 1,
        items: updateItem(
          state,
          action.id,
          action.error === undefined
            ? { status: 'uploaded', progress: 1, location: action.location }
            : { status: 'failed', error: action.error },
        ),
      };
    case 'saving':
      return { ...state, phase: 'saving', saveError: undefined };
    case 'finish':
      return { ...state, phase: 'done', saveError: undefined };
    case 'save-failed':
      return { ...state, phase: 'save-failed', saveError: action.error };
    case 'reset':
      return IDLE;
  }
}
