/**
 * Cache keys of the chat screens. The assistant list and the catalogue belong to other features;
 * the chat keeps its own read of them (only titles and first messages) under its own keys.
 */
export const chatKeys = {
  all: ['chats'] as const,
  list: () => ['chats', 'list'] as const,
  assistants: () => ['chats', 'assistant-titles'] as const,
  catalog: () => ['chats', 'catalog'] as const,
};
