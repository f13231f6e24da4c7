import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { browserLocation } from '../../../lib/navigation';
import { sessionQueryOptions, type Session } from '../api/get-session';
import { signInPath } from './callback-url';

/** Session status (spec §3): loading until the first fetch ends, then one of the other two. */
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

/** Options for {@link useSession}. */
export interface UseSessionOptions {
  /** The caller needs a session: when there is none, `onUnauthenticated` runs. */
  required?: boolean;
  /**
   * What to do when `required` and signed out. Defaults to loading the sign-in page with
   * `error=SessionRequired` and the current address as the callback URL.
   */
  onUnauthenticated?: () => void;
}

/** What {@link useSession} returns. */
export interface SessionState {
  /** The session, or null while loading or when signed out. */
  data: Session | null;
  /**
   * 'authenticated' iff the session has a user. With `required`, a signed-out session reports
   * 'loading' (the caller is being sent away), as NextAuth's useSession does.
   */
  status: SessionStatus;
  /** Refetches the session now and resolves to it. */
  update: () => Promise<Session | null>;
}

function redirectToSignIn(): void {
  const { pathname, search } = window.location;
  browserLocation.assign(signInPath({ error: 'SessionRequired', callbackUrl: pathname + search }));
}

/**
 * The current session. Every caller shares one cached fetch; `SessionProvider` refetches it when
 * the tab becomes visible, when another tab signs in or out, and on its polling interval.
 */
export function useSession({ required = false, onUnauthenticated }: UseSessionOptions = {}): SessionState {
  const { data, isPending, refetch } = useQuery(sessionQueryOptions());
  const status: SessionStatus = isPending ? 'loading' : data ? 'authenticated' : 'unauthenticated';

  const onUnauthenticatedRef = useRef(onUnauthenticated);
  useEffect(() => {
    onUnauthenticatedRef.current = onUnauthenticated;
  });

  useEffect(() => {
    if (required && status === 'unauthenticated') (onUnauthenticatedRef.current ?? redirectToSignIn)();
  }, [required, status]);

  const update = async () => (await refetch()).data ?? null;

  return {
    data: data ?? null,
    status: required && status === 'unauthenticated' ? 'loading' : status,
    update,
  };
}
