/** Who wrote a chat message: the teacher, the model, or the app (the text of files read in the chat). */
export type ChatRole = 'user' | 'assistant' | 'system';

/** One message of a chat, as the server stores and streams it. */
export interface ChatMessage {
  role: ChatRole;
  content: string;
  /**
   * An answer the teacher stopped: its content is what had arrived ('' when nothing had). Saved with
   * the chat (`chat/put`, optional); never sent to the model.
   */
  stopped?: boolean;
}

/** A document an answer produced, recorded against that answer's message index. */
export interface PastDocument {
  messageIndex: number;
  document: string;
}

/** What `chat/put` saves: the chat state slice of the spec. */
export interface ChatState {
  messages: ChatMessage[];
  document: string;
  pastDocuments: PastDocument[];
  chatId?: string;
}

/** A saved chat as `chat/get` lists it. */
export interface ChatDoc {
  _id: string;
  title: string;
  messages: ChatMessage[];
  document: string;
  pastDocuments: PastDocument[];
  assistantId?: string | null;
  toolId?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A workflow run the chat starts on mount. */
export interface WorkflowRun {
  id: string;
  inputs: Record<string, string>;
}
