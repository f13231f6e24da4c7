import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** What can be shared with another teacher. */
export type ShareKind = 'assignment' | 'rubric';

/** What {@link shareItem} takes. */
export interface ShareItemInput {
  kind: ShareKind;
  id: string;
  email: string;
}

/**
 * Shares an assignment (`POST /api/v1/db/share/assignment`) or a rubric (`…/share/rubric`) with
 * another teacher by email; they get a notification and can copy it. Resolves to the address it
 * went to. 400 with a message to show when nobody uses that email or they are a team-mate.
 */
export async function shareItem({ kind, id, email }: ShareItemInput): Promise<string> {
  const body = kind === 'assignment' ? { assignmentId: id, email } : { rubricId: id, email };
  const data = await api.post<{ sharedWith?: string } | undefined>(`/api/v1/db/share/${kind}`, body);
  return data?.sharedWith ?? email;
}

/** Shares an item. Nothing in this team changes, so nothing is invalidated. */
export function useShareItem() {
  return useMutation({ mutationFn: shareItem });
}
