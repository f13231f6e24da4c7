import { useEffect, useRef } from 'react';

/** What a key does; the event is passed so a handler can prevent its default. */
export type ShortcutHandler = (event: KeyboardEvent) => void;

/**
 * True when a key press belongs to what the user is typing or to an open dialog, so a page
 * shortcut must leave it alone: text fields, selects and editable content, and modal dialogs.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input:not([type="checkbox"]):not([type="radio"]):not([type="range"]), textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  return target.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null;
}

/**
 * Calls `handlers[event.key]` for key presses anywhere on the page, except while typing (see
 * {@link isTypingTarget}), with Ctrl, Alt or Meta held (the browser's and screen readers' keys),
 * or when something already handled the press. Handlers may change every render.
 */
export function useShortcuts(handlers: Record<string, ShortcutHandler | undefined>, enabled = true): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
      if (isTypingTarget(event.target) || isTypingTarget(document.activeElement)) return;
      const handler = latest.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
