import { useState } from 'react';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteAssistant } from '../api/delete-assistant';
import { useCreateAssistant } from '../api/save-assistant';
import { useSetSavedForTeam } from '../api/team-saved';
import { copyOf } from '../lib/copy';
import type { Assistant } from '../types';

/**
 * What the list's cards do: save or unsave for the team, copy and delete, each with its toast.
 * `busyId` names the assistant whose save, unsave or copy is under way.
 */
export function useAssistantActions() {
  const { showToast } = useToast();
  const setSaved = useSetSavedForTeam();
  const create = useCreateAssistant();
  const remove = useDeleteAssistant();
  const [busyId, setBusyId] = useState<string | null>(null);

  const toggleSaved = async (assistant: Assistant) => {
    const saved = !assistant.isSaved;
    setBusyId(assistant._id);
    try {
      await setSaved.mutateAsync({ assistantId: assistant._id, saved });
      showToast({ type: 'success', message: saved ? 'Assistant saved successfully' : 'Assistant unsaved successfully' });
    } catch {
      showToast({ type: 'error', message: 'Error saving assistant' });
    } finally {
      setBusyId(null);
    }
  };

  const copy = async (assistant: Assistant) => {
    setBusyId(assistant._id);
    try {
      await create.mutateAsync(copyOf(assistant));
      showToast({ type: 'success', message: 'Assistant copied successfully' });
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "Couldn't copy the assistant. Please try again.") });
    } finally {
      setBusyId(null);
    }
  };

  /** Deletes `assistant`, then says how it went. */
  const destroy = async (assistant: Assistant): Promise<void> => {
    try {
      await remove.mutateAsync(assistant._id);
      showToast({ type: 'success', message: 'Assistant deleted successfully' });
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, "Couldn't delete the assistant. Please try again.") });
    }
  };

  return { busyId, toggleSaved, copy, destroy, deleting: remove.isPending };
}
