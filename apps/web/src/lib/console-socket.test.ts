// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleSocket, SOCKET_EVENTS, revokedMessage } from './console-socket';
import { getSession, signIn, signOut } from './session';

type Listener = (...args: unknown[]) => void;

/** The socket.io client socket the console opens, reduced to what ConsoleSocket uses. */
const fake = vi.hoisted(() => {
  const listeners = new Map<string, Listener[]>();
  return {
    listeners,
    socket: {
      on: (event: string, listener: Listener) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
      off: () => undefined,
      emit: () => undefined,
      close: vi.fn(),
    },
    /** The server sends an event to this socket. */
    serverSends(event: string, payload?: unknown) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
});

vi.mock('socket.io-client', () => ({ io: () => fake.socket }));

/** Lets the socket.io client's dynamic import settle. */
const opened = () => vi.waitFor(() => expect(fake.listeners.size).toBeGreaterThan(0));

beforeEach(() => {
  localStorage.clear();
  fake.listeners.clear();
  fake.socket.close.mockClear();
  signIn('tok-1', {
    email: 'ada@example.test',
    username: 'ada@example.test',
    name: null,
    roles: [{ name: 'user', permissions: ['list-recording'] }],
    effectivePermissions: ['list-recording'],
    authType: 'jwt_auth',
  });
});

afterEach(() => signOut());

describe('ConsoleSocket', () => {
  it('signs out with the server’s words when the server revokes access, and closes', async () => {
    const socket = new ConsoleSocket('tok-1');
    await opened();
    fake.serverSends(SOCKET_EVENTS.revoked, { message: 'Your session has expired or was signed out. Sign in again.' });
    expect(getSession()).toMatchObject({
      token: null,
      user: null,
      reason: { kind: 'revoked', message: 'Your session has expired or was signed out. Sign in again.' },
    });
    expect(localStorage.getItem('token')).toBeNull();
    expect(fake.socket.close).toHaveBeenCalled();
    socket.close();
  });

  it('keeps the session on the other events', async () => {
    const socket = new ConsoleSocket('tok-1');
    await opened();
    fake.serverSends(SOCKET_EVENTS.countsChanged);
    fake.serverSends('disconnect', 'transport close');
    expect(getSession()).toMatchObject({ token: 'tok-1', reason: null });
    socket.close();
  });
});

describe('revokedMessage', () => {
  it('reads the message, or null when the payload has none', () => {
    expect(revokedMessage({ message: 'User deleted.' })).toBe('User deleted.');
    expect(revokedMessage({ message: '  ' })).toBeNull();
    expect(revokedMessage(undefined)).toBeNull();
    expect(revokedMessage('text')).toBeNull();
  });
});
