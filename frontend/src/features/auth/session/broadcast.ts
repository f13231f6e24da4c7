/**
 * Tells other tabs that the session changed, so they refetch it. Uses a BroadcastChannel named
 * {@link SESSION_CHANNEL}; where BroadcastChannel is missing, writes the message to the
 * localStorage key of the same name, which other tabs see as a `storage` event.
 */

/** Name of the BroadcastChannel and of the localStorage fallback key. */
export const SESSION_CHANNEL = 'markwell-session';

/** What happened to the session. */
export type SessionTrigger = 'signin' | 'signout' | 'update';

/** The message tabs exchange. */
export interface SessionMessage {
  event: 'session';
  trigger: SessionTrigger;
  /** The sending tab, so a tab ignores its own messages. */
  tabId: string;
  timestamp: number;
}

/** This tab's id (not crypto.randomUUID: that needs a secure context). */
const TAB_ID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function hasBroadcastChannel(): boolean {
  return typeof BroadcastChannel !== 'undefined';
}

function isSessionMessage(value: unknown): value is SessionMessage {
  return typeof value === 'object' && value !== null && (value as { event?: unknown }).event === 'session';
}

/** Tells every other tab that the session changed. */
export function notifySessionChange(trigger: SessionTrigger): void {
  const message: SessionMessage = { event: 'session', trigger, tabId: TAB_ID, timestamp: Date.now() };
  if (hasBroadcastChannel()) {
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.postMessage(message);
    channel.close();
    return;
  }
  try {
    localStorage.setItem(SESSION_CHANNEL, JSON.stringify(message));
  } catch {
    // Storage can be full or disabled; other tabs then catch up when they become visible.
  }
}

/**
 * Calls `listener` whenever another tab reports a session change (over the BroadcastChannel or
 * the storage event). Returns a function that stops listening.
 */
export function onSessionChange(listener: (message: SessionMessage) => void): () => void {
  const deliver = (value: unknown) => {
    if (isSessionMessage(value) && value.tabId !== TAB_ID) listener(value);
  };

  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_CHANNEL || !event.newValue) return;
    try {
      deliver(JSON.parse(event.newValue));
    } catch {
      // Not ours.
    }
  };
  window.addEventListener('storage', onStorage);

  let channel: BroadcastChannel | null = null;
  if (hasBroadcastChannel()) {
    channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.onmessage = (event: MessageEvent) => deliver(event.data);
  }

  return () => {
    window.removeEventListener('storage', onStorage);
    channel?.close();
  };
}
