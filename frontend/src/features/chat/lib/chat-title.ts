import type { ChatMessage } from '../types';

/** How long a chat's title may be before it is clipped. */
const TITLE_LENGTH = 60;

/**
 * A chat's title as the server derives it: the first user message with white space collapsed,
 * clipped to 60 characters with '…', or 'Untitled chat'.
 */
export function chatTitle(messages: ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'user');
  const text = first?.content.replace(/\s+/g, ' ').trim() ?? '';
  if (text === '') return 'Untitled chat';
  const chars = Array.from(text);
  return chars.length > TITLE_LENGTH ? `${chars.slice(0, TITLE_LENGTH).join('')}…` : text;
}
