import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Criterion } from './types';

/** Asks the AI for grading criteria for a question (`POST ai-assist/suggest-criteria`). */
export async function suggestCriteria(input: { question: string; context: string }): Promise<Criterion[]> {
  const data = await api.post<{ criteria?: Criterion[] }>('/api/v1/ai-assist/suggest-criteria', input);
  return data?.criteria ?? [];
}

/** Suggests criteria; nothing cached changes, so nothing is invalidated. */
export function useSuggestCriteria() {
  return useMutation({ mutationFn: suggestCriteria });
}
