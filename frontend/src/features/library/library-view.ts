import { ASSIGNMENT_TYPES, assignmentTypeLabel } from '../../lib/assignment-type';
import type { AssignmentType, Folder, Library, LibraryAssignment, LibraryRubric } from './types';

/** The type filter: everything, one assignment type, or rubrics only. */
export type TypeFilter = 'all' | AssignmentType | 'rubrics';

/** The filter chips, in order. */
export const TYPE_FILTERS: { value: TypeFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  ...ASSIGNMENT_TYPES.map((type) => ({ value: type, label: assignmentTypeLabel(type) })),
  { value: 'rubrics', label: 'Rubrics' },
];
/** A folder with the assignments it shows under the current filter. */
export interface FolderView {
  folder: Folder;
  assignments: LibraryAssignment[];
}

/** What the library screen shows. */
export interface LibraryView {
  folders: FolderView[];
  topLevel: LibraryAssignment[];
  rubrics: LibraryRubric[];
  /** Whether a search or type filter is narrowing the view. */
  filtered: boolean;
  /** Whether assignments (folders included) and rubrics are shown at all under the type filter. */
  showAssignments: boolean;
  showRubrics: boolean;
}

function byUpdatedDesc(a: { updatedAt?: string }, b: { updatedAt?: string }): number {
  return (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '');
}

function includes(haystack: string, needle: string): boolean {
  return haystack.toLocaleLowerCase().includes(needle);
}

/** The folder holding each assignment (the first folder that lists it). */
export function folderOfAssignments(folders: Folder[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const folder of folders) {
    for (const id of folder.assignments) if (!out.has(id)) out.set(id, folder._id);
  }
  return out;
}

/**
 * Groups and filters the library. Search matches names; a folder whose name matches shows all
 * its assignments of the chosen type. Folders are alphabetical, items newest first. While a filter
 * is on, folders with nothing to show are left out.
 */
export function buildLibraryView(library: Library, search: string, type: TypeFilter): LibraryView {
  const query = search.trim().toLocaleLowerCase();
  const filtered = query !== '' || type !== 'all';
  const showAssignments = type !== 'rubrics';
  const showRubrics = type === 'all' || type === 'rubrics';
  const typeMatches = (a: LibraryAssignment) => type === 'all' || type === a.type;
  const matches = (a: LibraryAssignment) => typeMatches(a) && (query === '' || includes(a.name, query));

  const byId = new Map(library.assignments.map((a) => [a._id, a]));
  const inFolder = folderOfAssignments(library.folders);

  const folders: FolderView[] = [];
  if (showAssignments) {
    const sorted = [...library.folders].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
    for (const folder of sorted) {
      const all = folder.assignments
        .filter((id) => inFolder.get(id) === folder._id)
        .map((id) => byId.get(id))
        .filter((a): a is LibraryAssignment => a !== undefined)
        .sort(byUpdatedDesc);
      const nameMatches = query !== '' && includes(folder.name, query);
      const shown = nameMatches ? all.filter(typeMatches) : all.filter(matches);
      if (!filtered || nameMatches || shown.length > 0) folders.push({ folder, assignments: filtered ? shown : all });
    }
  }

  const topLevel = showAssignments
    ? library.assignments.filter((a) => !inFolder.has(a._id) && matches(a)).sort(byUpdatedDesc)
    : [];
  const rubrics = showRubrics
    ? library.rubrics.filter((r) => query === '' || includes(r.name, query)).sort(byUpdatedDesc)
    : [];

  return { folders, topLevel, rubrics, filtered, showAssignments, showRubrics };
}

/** A folder as team/update-folders takes it. */
function plain(folder: Folder): Folder {
  return { _id: folder._id, name: folder.name, assignments: [...folder.assignments] };
}

/**
 * The whole folder list after moving an assignment: out of every folder that holds it, then into
 * `targetFolderId` (or nowhere, for the top level).
 */
export function foldersAfterMove(folders: Folder[], assignmentId: string, targetFolderId: string | null): Folder[] {
  return folders.map((folder) => {
    const assignments = folder.assignments.filter((id) => id !== assignmentId);
    if (folder._id === targetFolderId) assignments.push(assignmentId);
    return { ...plain(folder), assignments };
  });
}

/** The whole folder list with one folder renamed. */
export function foldersAfterRename(folders: Folder[], folderId: string, name: string): Folder[] {
  return folders.map((folder) => (folder._id === folderId ? { ...plain(folder), name } : plain(folder)));
}

/** The whole folder list without one folder (its assignments return to the top level). */
export function foldersAfterDelete(folders: Folder[], folderId: string): Folder[] {
  return folders.filter((folder) => folder._id !== folderId).map(plain);
}
