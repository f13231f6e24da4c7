/**
 * Cache keys of the chat screens. The assistant list and the catalogue are shared
 * resources (lib/assistants, lib/catalog): the chat reads them under their one key.
 */
export const chatKeys = {
  all: ['chats'] as const,
  list: () => ['chats', 'list'] as const,
};
