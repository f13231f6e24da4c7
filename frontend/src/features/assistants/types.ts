/** The assistant shapes live in lib/assistants (the chat reads saved assistants too). */
export type { Assistant, AssistantFile, AssistantInput } from '../../lib/assistants';
