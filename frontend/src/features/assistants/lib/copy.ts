import type { Assistant, AssistantInput } from '../types';

/** The longest title the server takes. */
export const MAX_TITLE_LENGTH = 200;

/** A new assistant with the same fields as `assistant`, titled 'Copy of {title}'. */
export function copyOf(assistant: Assistant): AssistantInput {
  return {
    title: `Copy of ${assistant.title}`.slice(0, MAX_TITLE_LENGTH),
    description: assistant.description,
    systemPrompt: assistant.systemPrompt,
    initialMessage: assistant.initialMessage,
    fileData: assistant.fileData.map(({ fileName, fileText, fileType }) => ({ fileName, fileText, fileType })),
    imageURL: assistant.imageURL,
  };
}
