import { api } from '../../../lib/api-client';

/** The pupil's name and email from their launch in the school's LMS (docs/lti.md). */
export interface LtiLearner {
  name: string;
  email: string;
}

/** Reads the pupil's LTI launch of this assignment (`POST lti/learner`); 404 once it expired. */
export async function getLtiLearner(assignmentId: string, token: string): Promise<LtiLearner> {
  const data = await api.post<{ learner: LtiLearner }>('/api/v1/lti/learner', { assignmentId, token });
  return data.learner;
}
