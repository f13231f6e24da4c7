import type { Folder, LibraryAssignment, LibraryRubric } from '../types';

/** The library's dialog on screen, if any. */
export type OpenDialog =
  | { kind: 'newFolder' }
  | { kind: 'move'; assignment: LibraryAssignment }
  | { kind: 'share'; item: { kind: 'assignment' | 'rubric'; id: string; name: string } }
  | { kind: 'deleteAssignment'; assignment: LibraryAssignment }
  | { kind: 'deleteRubric'; rubric: LibraryRubric }
  | { kind: 'renameFolder'; folder: Folder }
  | { kind: 'deleteFolder'; folder: Folder };
