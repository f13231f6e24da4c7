import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Criterion } from './types';

/** A question the AI found in an assignment sheet, with suggested criteria. */
export interface SuggestedQuestion {
  question: string;
  criteria: Criterion[];
}

/** Asks the AI for questions and criteria from an assignment sheet (`POST ai-assist/suggest-questions`). */
export async function suggestQuestions(input: { assignmentText: string }): Promise<SuggestedQuestion[]> {
  const data = await api.post<{ questionsAndCrits?: SuggestedQuestion[] }>('/api/v1/ai-assist/suggest-questions', input);
  return data?.questionsAndCrits ?? [];
}

/** Suggests questions; nothing cached changes, so nothing is invalidated. */
export function useSuggestQuestions() {
  return useMutation({ mutationFn: suggestQuestions });
}
