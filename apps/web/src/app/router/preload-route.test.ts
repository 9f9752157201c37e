// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionListQuery } from '../../features/sessions/api/list-sessions';
import { readFilters } from '../../features/sessions/components/use-session-filters';
import { signIn, signOut } from '../../lib/session';
import { createQueryClient } from '../providers/query-client';
import { preloadRoute } from './preload-route';

const user = (effectivePermissions: string[]) => ({
  email: 'a@example.test',
  username: 'a@example.test',
  name: null,
  roles: [{ name: 'auditor', permissions: effectivePermissions }],
  effectivePermissions,
  authType: 'jwt_auth' as const,
});

/** fetch answering every call with an empty page of sessions; the URLs it was called with. */
function stubFetch(): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      urls.push(String(url));
      return Promise.resolve(
        new Response(JSON.stringify({ recordings: [], next_cursor: null }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }),
  );
  return urls;
}

describe('preloadRoute', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    signOut();
  });

  it('fetches the session list’s first page with the URL’s filters, under the key the screen reads', async () => {
    const urls = stubFetch();
    signIn('token-1', user(['list-recording']));
    const client = createQueryClient();
    expect(preloadRoute('#/recordings?live=live&sort=hostname&order=asc', client)).toBeInstanceOf(Promise);
    const { sort, order, ...filters } = readFilters(new URLSearchParams('live=live&sort=hostname&order=asc'));
    // What SessionsPage asks for on its first page (page size 25, no cursor).
    const key = sessionListQuery({ ...filters, sort, order, pageSize: 25, cursor: undefined }).queryKey;
    await vi.waitFor(() => expect(client.getQueryData(key)).toEqual({ recordings: [], next_cursor: null }));
    expect(urls).toHaveLength(1);
    expect(urls[0]).toMatch(/api\/recording\?.*live=true/);
    expect(urls[0]).toMatch(/sort=hostname&order=asc/);
  });

  it('fetches nothing for a signed-out visitor, a user without list-recording, or a route without a preload', () => {
    const urls = stubFetch();
    const client = createQueryClient();
    expect(preloadRoute('#/recordings', client)).toBeUndefined();
    signIn('token-2', user(['list-host']));
    expect(preloadRoute('#/recordings', client)).toBeUndefined();
    signIn('token-3', user(['list-recording']));
    expect(preloadRoute('#/dashboard', client)).toBeUndefined();
    expect(preloadRoute('#/recordings/0b6c3f2e-0000-4000-8000-000000000000', client)).toBeUndefined();
    expect(urls).toEqual([]);
    expect(client.getQueryCache().getAll()).toEqual([]);
  });
});
