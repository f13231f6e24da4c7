/** The catalogue's shapes live in lib/catalog (the chat reads the catalogue too). */
export type { Catalog, Tool, ToolKind, Workflow, WorkflowField, WorkflowFieldKind } from '../../../lib/catalog';
