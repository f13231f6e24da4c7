import { useCallback, useEffect, useReducer, useRef } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { streamChat, type ChatStreamRequest } from '../api/stream';
import {
  initialSession,
  plainMessages,
  sessionReducer,
  stoppedRetryRequest,
  type DisplayMessage,
  type SessionStart,
  type SessionState,
} from '../lib/session';
import type { WorkflowRun } from '../types';

/** Said when an answer fails without a message of the server's (a network failure). */
export const NETWORK_FAILURE = 'The answer could not be loaded. Check your connection and try again.';

/** What {@link useChatSession} offers a chat page. */
export interface ChatSession {
  state: SessionState;
  streaming: boolean;
  /** Sends the teacher's message and streams the answer. */
  send: (text: string) => void;
  /** Stops the answer streaming now; it stays, marked stopped, with its text so far (if any). */
  stop: () => void;
  /** Sends the failed request again. */
  retry: () => void;
  /** Asks the question of the last answer, a stopped one, again (null when there is none to ask). */
  retryStopped: (() => void) | null;
  appendMessages: (messages: DisplayMessage[]) => void;
  setDocument: (document: string) => void;
  markSaved: (chatId: string, revision: number) => void;
}

/**
 * One chat's state and its streaming. With `workflow`, the workflow runs once on mount (also
 * under StrictMode's double effects). Leaving the page stops an answer in progress.
 */
export function useChatSession(start: SessionStart, workflow?: WorkflowRun): ChatSession {
  const [state, dispatch] = useReducer(sessionReducer, start, initialSession);
  const stateRef = useRef(state);
  stateRef.current = state;
  const controller = useRef<AbortController | null>(null);

  const run = useCallback((request: ChatStreamRequest) => {
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    dispatch({ type: 'start', request });
    streamChat(request, {
      signal: ctrl.signal,
      onEvent: (event) => {
        if (ctrl.signal.aborted) return;
        switch (event.type) {
          case 'meta':
            dispatch({ type: 'meta', omittedTurns: event.omittedTurns, prompt: event.prompt });
            break;
          case 'delta':
            dispatch({ type: 'delta', text: event.text });
            break;
          case 'document':
            dispatch({ type: 'document', document: event.document });
            break;
          case 'done':
            dispatch({ type: 'done', text: event.text, document: event.document });
            break;
          case 'error':
            dispatch({ type: 'failed', message: event.message });
            break;
        }
      },
    }).then(
      () => {
        if (controller.current === ctrl) controller.current = null;
      },
      (err: unknown) => {
        if (controller.current === ctrl) controller.current = null;
        if (ctrl.signal.aborted) {
          dispatch({ type: 'stopped' });
          return;
        }
        const fallback = err instanceof Error && err.name !== 'ApiError' ? err.message : NETWORK_FAILURE;
        dispatch({ type: 'failed', message: errorMessage(err, fallback) });
      },
    );
  }, []);

  const send = useCallback(
    (text: string) => {
      const current = stateRef.current;
      if (current.live) return;
      const user: DisplayMessage = { role: 'user', content: text };
      const request: ChatStreamRequest = { messages: plainMessages([...current.messages, user]) };
      if (current.assistantId) request.assistantId = current.assistantId;
      if (current.toolId) request.toolId = current.toolId;
      // Earlier answers hold only their chat text; the document (edits included) goes alongside,
      // and the revision starts from it. An edit is kept as a version of its own ('send').
      if (current.document.trim() !== '') request.document = current.document;
      dispatch({ type: 'send', message: user });
      run(request);
    },
    [run],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  const retry = useCallback(() => {
    const failed = stateRef.current.error;
    if (failed && !stateRef.current.live) run(failed.request);
  }, [run]);

  const retryStopped = useCallback(() => {
    const request = stoppedRetryRequest(stateRef.current);
    if (!request) return;
    dispatch({ type: 'retryStopped' });
    run(request);
  }, [run]);

  // Run the workflow once. Refs survive StrictMode's unmount-and-mount rehearsal, so the second
  // pass sees it started.
  const workflowStarted = useRef(false);
  useEffect(() => {
    if (!workflow || workflowStarted.current) return;
    workflowStarted.current = true;
    const request: ChatStreamRequest = { messages: [], workflow };
    const toolId = stateRef.current.toolId;
    if (toolId) request.toolId = toolId;
    run(request);
    // Only on mount: a workflow run is started once.
  }, []);

  // Stop the answer when the page goes away, but not on StrictMode's rehearsal (it mounts again
  // at once, in the same task).
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      setTimeout(() => {
        if (!mounted.current) controller.current?.abort();
      }, 0);
    };
  }, []);

  return {
    state,
    streaming: state.live !== null,
    send,
    stop,
    retry,
    retryStopped: stoppedRetryRequest(state) ? retryStopped : null,
    appendMessages: useCallback((messages: DisplayMessage[]) => dispatch({ type: 'append', messages }), []),
    setDocument: useCallback((document: string) => dispatch({ type: 'setDocument', document }), []),
    markSaved: useCallback((chatId: string, revision: number) => dispatch({ type: 'saved', chatId, revision }), []),
  };
}
