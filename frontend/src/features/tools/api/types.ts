/** What a built-in tool opens: a chat with a ready-made assistant, or the rubric-from-sheet dialog. */
export type ToolKind = 'chat' | 'rubric';

/** A ready-made assistant of the catalogue (`GET /api/v1/catalog`). */
export interface Tool {
  id: string;
  title: string;
  description: string;
  initialMessage: string;
  kind: ToolKind;
}

/** The kinds of input a workflow's form asks for. */
export type WorkflowFieldKind = 'text' | 'textarea' | 'select';

/** One input of a workflow's form. */
export interface WorkflowField {
  name: string;
  label: string;
  kind: WorkflowFieldKind;
  required: boolean;
  /** The choices of a select field. */
  options?: string[];
  placeholder?: string;
  /** The longest answer the server accepts, in characters. */
  maxLength: number;
}

/** A guided form whose answers the model turns into a document. */
export interface Workflow {
  id: string;
  title: string;
  description: string;
  fields: WorkflowField[];
}

/** The whole catalogue: tools and workflows. */
export interface Catalog {
  tools: Tool[];
  workflows: Workflow[];
}
