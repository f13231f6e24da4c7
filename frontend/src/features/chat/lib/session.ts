import type { ChatStreamRequest } from '../api/stream';
import type { ChatMessage, PastDocument } from '../types';
import { isUnkeptEdit, recordVersion } from './versions';

/**
 * A message as the chat shows it: `stopped` marks an answer the teacher stopped, part-way or before
 * any text; `request` is what that answer was asked (Retry asks it again).
 */
export interface DisplayMessage extends ChatMessage {
  request?: ChatStreamRequest;
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
  | { type: 'retryStopped' }
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

/**
 * The messages as the model is asked them: without the page's own marks, and without answers
 * stopped before any text (there is nothing of them to go on).
 */
export function plainMessages(messages: DisplayMessage[]): ChatMessage[] {
  return messages.filter((m) => !isUnanswered(m)).map(({ role, content }) => ({ role, content }));
}

/** The messages as `chat/put` saves them: a stopped answer keeps its mark. */
export function savedMessages(messages: DisplayMessage[]): ChatMessage[] {
  return messages.map(({ role, content, stopped }) => (stopped ? { role, content, stopped } : { role, content }));
}

/** An answer stopped before any of its text arrived. */
export function isUnanswered(message: ChatMessage): boolean {
  return message.role === 'assistant' && message.stopped === true && message.content.trim() === '';
}

/**
 * What Retry asks again for the chat's last message, a stopped answer: what it was asked, or for a
 * reopened chat the conversation before it (with the assistant or tool and the document); null when
 * the last message is no stopped answer or nothing before it asked a question.
 */
export function stoppedRetryRequest(state: SessionState): ChatStreamRequest | null {
  const last = state.messages[state.messages.length - 1];
  if (state.live || last?.role !== 'assistant' || !last.stopped) return null;
  if (last.request) return last.request;
  const messages = plainMessages(state.messages.slice(0, -1));
  if (!messages.some((m) => m.role === 'user')) return null;
  const request: ChatStreamRequest = { messages };
  if (state.assistantId) request.assistantId = state.assistantId;
  if (state.toolId) request.toolId = state.toolId;
  if (state.document.trim() !== '') request.document = state.document;
  return request;
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
      // The answer stays, marked stopped, with what had arrived: nothing when it was stopped
      // before any text ("Stopped before answering"), so the question is not left bare.
      if (!state.live) return state;
      const stopped: DisplayMessage = { role: 'assistant', content: state.live.text, stopped: true };
      if (state.pending) stopped.request = state.pending;
      return changed({ messages: [...state.messages, stopped], live: null, pending: null });
    }
    case 'retryStopped': {
      // Retry takes the stopped answer away; the new one streams in its place.
      const last = state.messages[state.messages.length - 1];
      if (state.live || last?.role !== 'assistant' || !last.stopped) return state;
      const index = state.messages.length - 1;
      return changed({
        messages: state.messages.slice(0, index),
        pastDocuments: state.pastDocuments.filter((p) => p.messageIndex !== index),
      });
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
