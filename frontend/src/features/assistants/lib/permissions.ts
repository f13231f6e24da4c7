import type { CurrentUser } from '../../../lib/current-user';
import type { Assistant } from '../types';

/** True when the teacher may edit or delete `assistant`: its author, or the team's owner. */
export function canChange(assistant: Pick<Assistant, 'isMine'>, user: CurrentUser | undefined): boolean {
  if (assistant.isMine) return true;
  return !!user && user._id === user.team.ownerId;
}
