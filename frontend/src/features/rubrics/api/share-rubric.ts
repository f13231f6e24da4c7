import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * Shares a rubric with another teacher by email (`POST /api/v1/db/share/rubric`); they get a
 * notification and can copy it. 400 when nobody uses that email or they are a team-mate.
 */
export async function shareRubric({ rubricId, email }: { rubricId: string; email: string }): Promise<string> {
  const data = await api.post<{ sharedWith?: string } | undefined>('/api/v1/db/share/rubric', { rubricId, email });
  return data?.sharedWith ?? email;
}

/** Shares a rubric. Nothing in this team changes, so nothing is invalidated. */
export function useShareRubric() {
  return useMutation({ mutationFn: shareRubric });
}
