import { useCallback, useRef, useState } from 'react';
import { useToast } from '../../../components/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useCreateAssignment } from '../api/create-assignment';
import { DEFINITION_EXISTS_MESSAGE, useCreateFunction } from '../api/create-function';
import { getFunction } from '../api/get-function';
import { useUpdateAssignment } from '../api/update-assignment';
import { useUpdateFunction } from '../api/update-function';
import type { Assignment, AssignmentInput, DefinitionInput } from '../api/types';

/** Fallback toast when a failed call carries no message of its own. */
export const CREATE_FAILED_MESSAGE = "We couldn't create the assignment. Your work is still here; please try again.";

/** Toast shown once an assignment and its definition are saved. */
export const CREATED_MESSAGE = 'Assignment created';

function sameInput(a: AssignmentInput, b: AssignmentInput): boolean {
  return (
    a.name === b.name &&
    a.type === b.type &&
    a.isHandWritten === b.isHandWritten &&
    a.provideInstantFeedback === b.provideInstantFeedback
  );
}

function isDefinitionExists(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && error.body.error?.message === DEFINITION_EXISTS_MESSAGE;
}

/** What {@link useCreateAssignmentWithDefinition} returns. */
export interface CreateAssignmentFlow {
  /** Saves the assignment and then its definition; resolves to the new id, or null on failure. */
  create: (input: AssignmentInput, definition: DefinitionInput) => Promise<string | null>;
  /** True while either call runs. */
  pending: boolean;
}

/**
 * Creates an assignment in two calls (`assignment/put`, then `function/put`) without ever losing
 * the teacher's work: a failure shows the server's message and leaves the wizard as it was, and
 * a retry reuses the assignment already created (saving a changed name or flags first) rather
 * than creating a second one. If the definition turns out to be saved already (its response was
 * lost), it is replaced with the current one.
 */
export function useCreateAssignmentWithDefinition(): CreateAssignmentFlow {
  const { showToast } = useToast();
  const { mutateAsync: createAssignment } = useCreateAssignment();
  const { mutateAsync: updateAssignment } = useUpdateAssignment();
  const { mutateAsync: createFunction } = useCreateFunction();
  const { mutateAsync: updateFunction } = useUpdateFunction();
  const created = useRef<{ assignment: Assignment; input: AssignmentInput } | null>(null);
  const [pending, setPending] = useState(false);

  const create = useCallback(
    async (input: AssignmentInput, definition: DefinitionInput): Promise<string | null> => {
      setPending(true);
      try {
        let assignment: Assignment;
        if (!created.current) {
          assignment = await createAssignment(input);
          created.current = { assignment, input };
        } else if (!sameInput(created.current.input, input)) {
          const id = created.current.assignment._id;
          assignment = { ...created.current.assignment, ...(await updateAssignment({ id, ...input })), _id: id };
          created.current = { assignment, input };
        } else {
          assignment = created.current.assignment;
        }

        const assignmentId = assignment._id;
        try {
          await createFunction({ assignmentId, ...definition });
        } catch (error) {
          if (!isDefinitionExists(error)) throw error;
          const existing = await getFunction({ type: input.type, assignmentId });
          await updateFunction({ assignmentId, functionId: existing._id, ...definition });
        }
        showToast({ type: 'success', message: CREATED_MESSAGE });
        return assignmentId;
      } catch (error) {
        showToast({ type: 'error', message: errorMessage(error, CREATE_FAILED_MESSAGE) });
        return null;
      } finally {
        setPending(false);
      }
    },
    [createAssignment, updateAssignment, createFunction, updateFunction, showToast],
  );

  return { create, pending };
}
