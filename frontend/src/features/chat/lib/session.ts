import type { ChatStreamRequest } from '../api/stream';
import type { ChatMessage, PastDocument } from '../types';
import { isUnkeptEdit, recordVersion } from './versions';

/** A message as the chat shows it: `stopped` marks an answer the teacher stopped part-way. */
export interface DisplayMessage extends ChatMessage {
  stopped?: boolean;
}

/** The answer being streamed. */
export interface LiveAnswer {
  text: string;
}

/** A failed answer and what "Retry" sends again. */
export interface FailedAnswer {
  message: string;
  request: ChatStreamRequest;
}

/** Everything one chat holds on the page. */
export interface SessionState {
  messages: DisplayMessage[];
  document: string;
  pastDocuments: PastDocument[];
  chatId?: string;
  assistantId?: string;
  toolId?: string;
  /** The answer streaming now, or null. */
  live: LiveAnswer | null;
  /** What the stream in progress was asked (kept for Retry). */
  pending: ChatStreamRequest | null;
  /** The document before the stream in progress, put back if it fails. */
  documentBefore: string;
  error: FailedAnswer | null;
  /** Messages the server left out of the last request. */
  omittedTurns: number;
  /** Bumped by every change worth saving; `savedRevision` is the one last saved. */
  revision: number;
  savedRevision: number;
}

/** Changes to a chat. */
export type SessionAction =
  | { type: 'append'; messages: DisplayMessage[] }
  | { type: 'send'; message: DisplayMessage }
  | { type: 'start'; request: ChatStreamRequest }
  | { type: 'meta'; omittedTurns: number; prompt?: string }
  | { type: 'delta'; text: string }
  | { type: 'document'; document: string }
  | { type: 'done'; text: string; document: string }
  | { type: 'stopped' }
  | { type: 'failed'; message: string }
  | { type: 'setDocument'; document: string }
  | { type: 'saved'; chatId: string; revision: number };

/** Where a chat starts. */
export interface SessionStart {
  messages: DisplayMessage[];
  document?: string;
  pastDocuments?: PastDocument[];
  chatId?: string;
  assistantId?: string;
  toolId?: string;
}

/** The state of a chat opened from `start`: a saved chat counts as saved. */
export function initialSession(start: SessionStart): SessionState {
  return {
    messages: start.messages,
    document: start.document ?? '',
    pastDocuments: [...(start.pastDocuments ?? [])].sort((a, b) => a.messageIndex - b.messageIndex),
    chatId: start.chatId,
    assistantId: start.assistantId,
    toolId: start.toolId,
    live: null,
    pending: null,
    documentBefore: '',
    error: null,
    omittedTurns: 0,
    revision: 0,
    savedRevision: 0,
  };
}

/** The messages as the server takes them (without the page's own marks). */
export function plainMessages(messages: DisplayMessage[]): ChatMessage[] {
  return messages.map(({ role, content }) => ({ role, content }));
}

/** Applies one change to a chat. */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  const changed = (next: Partial<SessionState>): SessionState => ({ ...state, ...next, revision: state.revision + 1 });
  switch (action.type) {
    case 'append':
      return changed({ messages: [...state.messages, ...action.messages] });
    case 'send': {
      // The teacher asks for a change: a hand edit no version holds yet becomes a version of its
      // own ("Your edit"), kept against this message, so the revision cannot make it disappear.
      const messages = [...state.messages, action.message];
      const pastDocuments = isUnkeptEdit(state.pastDocuments, state.document)
        ? recordVersion(state.pastDocuments, messages.length - 1, state.document)
        : state.pastDocuments;
      return changed({ messages, pastDocuments });
    }
    case 'start':
      return {
        ...state,
        live: { text: '' },
        pending: action.request,
        documentBefore: state.document,
        error: null,
      };
    case 'meta': {
      if (!action.prompt) return { ...state, omittedTurns: action.omittedTurns };
      // A workflow's first message, composed by the server: the chat continues as the workflow's.
      const messages = [...state.messages, { role: 'user' as const, content: action.prompt }];
      const toolId = state.toolId ?? state.pending?.workflow?.id;
      const pending: ChatStreamRequest = { messages: plainMessages(messages) };
      if (state.assistantId) pending.assistantId = state.assistantId;
      if (toolId) pending.toolId = toolId;
      return changed({ omittedTurns: action.omittedTurns, messages, toolId, pending });
    }
    case 'delta':
      return state.live ? { ...state, live: { text: state.live.text + action.text } } : state;
    case 'document':
      return state.live ? { ...state, document: action.document } : state;
    case 'done': {
      if (!state.live) return state;
      const messages = [...state.messages, { role: 'assistant' as const, content: action.text }];
      const index = messages.length - 1;
      const hasDocument = action.document !== '';
      return changed({
        messages,
        live: null,
        pending: null,
        document: hasDocument ? action.document : state.documentBefore,
        pastDocuments: hasDocument ? recordVersion(state.pastDocuments, index, action.document) : state.pastDocuments,
      });
    }
    case 'stopped': {
      if (!state.live) return state;
      const partial = state.live.text;
      const messages: DisplayMessage[] =
        partial.trim() === '' ? state.messages : [...state.messages, { role: 'assistant', content: partial, stopped: true }];
      return changed({ messages, live: null, pending: null });
    }
    case 'failed':
      if (!state.live) return state;
      return {
        ...state,
        live: null,
        document: state.documentBefore,
        error: { message: action.message, request: state.pending ?? { messages: plainMessages(state.messages) } },
        pending: null,
      };
    case 'setDocument':
      return action.document === state.document ? state : changed({ document: action.document });
    case 'saved':
      return { ...state, chatId: action.chatId, savedRevision: action.revision };
  }
}
