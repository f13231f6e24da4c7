import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../api/get-session';
import { TEST_SESSION } from '../../../testing/handlers';
import { server } from '../../../testing/server';
import { renderWithProviders } from '../../../testing/test-utils';
import { notifySessionChange, SESSION_CHANNEL, type SessionMessage } from './broadcast';
import { useSession, type UseSessionOptions } from './use-session';

/** Shows the session as a teacher-facing line of text. */
function SessionLine(props: UseSessionOptions) {
  const { status, data } = useSession(props);
  return <p>{data ? `${status}: ${data.user.name}` : status}</p>;
}

/** A session endpoint whose answer the test can change; counts the fetches. */
function sessionEndpoint(initial: Session | null) {
  const state = { current: initial, fetches: 0 };
  server.use(
    http.get('/api/auth/session', () => {
      state.fetches += 1;
      return HttpResponse.json(state.current ?? {});
    }),
  );
  return state;
}

/** Posts a message as another tab would. */
function messageFromAnotherTab(trigger: SessionMessage['trigger']) {
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage({ event: 'session', trigger, tabId: 'another-tab', timestamp: Date.now() } satisfies SessionMessage);
  channel.close();
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('useSession', () => {
  it('is loading until the first fetch ends, then authenticated with the user', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/auth/session', async () => {
        await gate;
        return HttpResponse.json(TEST_SESSION);
      }),
    );
    renderWithProviders(<SessionLine />);

    expect(screen.getByText('loading')).toBeInTheDocument();
    release();
    expect(await screen.findByText('authenticated: Ada Lovelace')).toBeInTheDocument();
  });

  it('is unauthenticated when the session is empty', async () => {
    sessionEndpoint(null);
    renderWithProviders(<SessionLine />);

    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
  });

  it('logs a failed session fetch and treats it as signed out', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get('/api/auth/session', () => HttpResponse.error()));
    renderWithProviders(<SessionLine />);

    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('[markwell] session fetch failed', expect.anything());
  });

  it('treats a 500 from the session endpoint as signed out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(http.get('/api/auth/session', () => new HttpResponse('oops', { status: 500 })));
    renderWithProviders(<SessionLine />);

    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
  });

  it('refetches when the tab becomes visible', async () => {
    const endpoint = sessionEndpoint(TEST_SESSION);
    renderWithProviders(<SessionLine />);
    await screen.findByText('authenticated: Ada Lovelace');

    endpoint.current = null;
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });

    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
    expect(endpoint.fetches).toBe(2);
  });

  it('refetches when another tab signals a change over the BroadcastChannel', async () => {
    const endpoint = sessionEndpoint(null);
    renderWithProviders(<SessionLine />);
    await screen.findByText('unauthenticated');

    endpoint.current = TEST_SESSION;
    messageFromAnotherTab('signin');

    expect(await screen.findByText('authenticated: Ada Lovelace')).toBeInTheDocument();
  });

  it('refetches on the storage event where BroadcastChannel is missing', async () => {
    const endpoint = sessionEndpoint(TEST_SESSION);
    renderWithProviders(<SessionLine />);
    await screen.findByText('authenticated: Ada Lovelace');

    endpoint.current = null;
    const message: SessionMessage = { event: 'session', trigger: 'signout', tabId: 'another-tab', timestamp: 1 };
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_CHANNEL, newValue: JSON.stringify(message) }));
    });

    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
  });

  it('ignores storage events for other keys', async () => {
    const endpoint = sessionEndpoint(TEST_SESSION);
    renderWithProviders(<SessionLine />);
    await screen.findByText('authenticated: Ada Lovelace');

    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'something-else', newValue: '{"event":"session"}' }));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(endpoint.fetches).toBe(1);
  });

  it('polls on the refetch interval', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const endpoint = sessionEndpoint(TEST_SESSION);
    renderWithProviders(<SessionLine />, { sessionRefetchInterval: 60 });
    await screen.findByText('authenticated: Ada Lovelace');

    endpoint.current = null;
    act(() => vi.advanceTimersByTime(59_000));
    expect(endpoint.fetches).toBe(1);

    act(() => vi.advanceTimersByTime(1_000));
    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
    expect(endpoint.fetches).toBe(2);
  });

  it('does not poll without an interval', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const endpoint = sessionEndpoint(TEST_SESSION);
    renderWithProviders(<SessionLine />);
    await screen.findByText('authenticated: Ada Lovelace');

    act(() => vi.advanceTimersByTime(10 * 60_000));
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(endpoint.fetches).toBe(1);
  });

  it('calls onUnauthenticated when a session is required and there is none', async () => {
    sessionEndpoint(null);
    const onUnauthenticated = vi.fn();
    renderWithProviders(<SessionLine required onUnauthenticated={onUnauthenticated} />);

    await waitFor(() => expect(onUnauthenticated).toHaveBeenCalledTimes(1));
    // The caller is on its way out, so it keeps reporting "loading" as NextAuth does.
    expect(screen.getByText('loading')).toBeInTheDocument();
  });
});

describe('session change messages', () => {
  it('reach other tabs over the BroadcastChannel', async () => {
    const listener = new BroadcastChannel(SESSION_CHANNEL);
    const received = new Promise<SessionMessage>((resolve) => {
      listener.onmessage = (event: MessageEvent<SessionMessage>) => resolve(event.data);
    });

    notifySessionChange('signout');

    await expect(received).resolves.toMatchObject({ event: 'session', trigger: 'signout' });
    listener.close();
  });

  it('fall back to the markwell-session localStorage key', () => {
    vi.stubGlobal('BroadcastChannel', undefined);

    notifySessionChange('signin');

    expect(JSON.parse(localStorage.getItem(SESSION_CHANNEL) ?? '{}')).toMatchObject({ event: 'session', trigger: 'signin' });
  });

  it('are ignored by the tab that sent them', async () => {
    const endpoint = sessionEndpoint(TEST_SESSION);
    renderWithProviders(<SessionLine />);
    await screen.findByText('authenticated: Ada Lovelace');

    notifySessionChange('update');
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(endpoint.fetches).toBe(1);
  });
});
