import { api, getCsrfToken } from '../../../lib/api-client';

/** Markwell's tool configuration, to copy into an LMS. */
export interface ToolConfig {
  loginUrl: string;
  redirectUri: string;
  jwksUrl: string;
  canvas: unknown;
}

/** A registered LMS (docs/lti.md). */
export interface Platform {
  id?: string;
  name: string;
  issuer: string;
  clientId: string;
  deploymentIds: string[];
  authLoginUrl: string;
  tokenUrl: string;
  jwksUrl: string;
}

/** The operators' LTI page (`GET /api/v1/operator/lti`). */
export interface OperatorLti {
  tool: ToolConfig;
  platforms: Platform[];
  keyIds: string[];
}

export function getOperatorLti(): Promise<OperatorLti> {
  return api.get<OperatorLti>('/api/v1/operator/lti');
}

export async function savePlatform(p: Platform): Promise<Platform> {
  const data = await api.post<{ platform: Platform }>('/api/v1/operator/lti/platforms', p);
  return data.platform;
}

export async function deletePlatform(id: string): Promise<void> {
  await api.post('/api/v1/operator/lti/platforms/delete', { id });
}

export async function rotateKey(): Promise<void> {
  await api.post('/api/v1/operator/lti/rotate-key', {});
}

/** A teacher's deep-linking request from their LMS. */
export interface DeepLinkRequest {
  id: string;
  platform: string;
  lineItem: boolean;
}

export async function getDeepLink(id: string): Promise<DeepLinkRequest> {
  const data = await api.post<{ request: DeepLinkRequest }>('/api/v1/lti/deep-link/get', { id });
  return data.request;
}

/** One of the team's assignments, as the picker lists it. */
export interface PickableAssignment {
  _id: string;
  name: string;
  type?: string;
}

/** The team's assignments, at the top of the library and in its folders. */
export async function getTeamAssignments(): Promise<PickableAssignment[]> {
  const data = await api.get<{ assignments?: PickableAssignment[]; folders?: { assignments?: PickableAssignment[] }[] } | undefined>(
    '/api/v1/db/library/get',
  );
  const all = [...(data?.assignments ?? []), ...(data?.folders ?? []).flatMap((f) => f.assignments ?? [])];
  return all.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Answers the LMS with the picked assignment. The browser form-posts the pick to Markwell, which
 * answers with its own page that posts the signed response to the LMS's registered return URL (the
 * app's CSP lets its own forms post only to Markwell).
 */
export async function pickForPlatform(id: string, assignmentId: string): Promise<void> {
  const token = await getCsrfToken();
  if (!token) throw new Error('The link could not be made. Please reload the page and try again.');
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = '/api/v1/lti/deep-link/post';
  for (const [name, value] of Object.entries({ id, assignmentId, csrfToken: token })) {
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = name;
    field.value = value;
    form.appendChild(field);
  }
  document.body.appendChild(form);
  form.submit();
}

/** One pupil's score sent to the LMS gradebook. */
export interface LtiScore {
  submissionId: string;
  studentName: string;
  score: number;
  maxScore: number;
  state: 'pending' | 'sent' | 'failed' | 'skipped';
  error?: string;
}

/** An assignment's LTI side (`POST lti/assignment/status`). */
export interface LtiStatus {
  linked: boolean;
  scores: LtiScore[];
  roster?: { name: string; email: string; submitted: boolean }[];
  rosterError?: string;
}

export async function getLtiStatus(assignmentId: string, roster: boolean): Promise<LtiStatus> {
  const data = await api.post<{ lti: LtiStatus }>('/api/v1/lti/assignment/status', { assignmentId, roster });
  return data.lti;
}
