/** A file attached to an assistant: its name, the text read from it and its media type. */
export interface AssistantFile {
  fileName: string;
  fileText: string;
  fileType: string;
}

/** What an assistant is made of (spec §3 "Assistant"): what put and update send. */
export interface AssistantInput {
  title: string;
  description: string;
  systemPrompt: string;
  initialMessage: string;
  fileData: AssistantFile[];
  imageURL: string;
}

/** A saved assistant as `db/assistant/list` returns it. */
export interface Assistant extends AssistantInput {
  _id: string;
  createdAt: string;
  updatedAt: string;
  /** Saved for the team (it shows for every teammate). */
  isSaved: boolean;
  /** Made by the signed-in teacher. */
  isMine: boolean;
}
