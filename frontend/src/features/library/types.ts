/** Shapes of the library API (docs/api-authoring.md, "Shapes"). */

import type { AssignmentType } from '../../lib/assignment-type';

/** The kinds of assignment: the one list in lib/assignment-type. */
export type { AssignmentType };

/** An assignment as the library lists it. */
export interface LibraryAssignment {
  _id: string;
  name: string;
  type: AssignmentType;
  isHandWritten?: boolean;
  provideInstantFeedback?: boolean;
  folderId?: string | null;
  submissions?: { _id: string }[];
  createdAt?: string;
  updatedAt?: string;
}

/** A rubric as the library lists it. */
export interface LibraryRubric {
  _id: string;
  name: string;
  criteria?: unknown[];
  createdAt?: string;
  updatedAt?: string;
}

/** A named folder of assignments. A folder without `_id` is created by team/update-folders. */
export interface Folder {
  _id: string;
  name: string;
  assignments: string[];
}

/** Everything on the library screen. */
export interface Library {
  assignments: LibraryAssignment[];
  rubrics: LibraryRubric[];
  folders: Folder[];
}

/** Something another teacher shared with the signed-in teacher. */
export interface ShareNotification {
  _id: string;
  kind: 'shared-assignment' | 'shared-rubric';
  status: 'open' | 'closed';
  sender: { name: string; email: string };
  item: { _id: string; name: string; type?: AssignmentType };
  createdAt: string;
}
