import { PERMISSIONS, type RouteName, routeList, routes } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { API } from '../lib/api-routes';
import { callerOf } from './http';
import { MOCK_ROUTES } from './routes';
import { createMockState } from './state';
import { ADMIN, TEST_BASE, TEST_NOW, serveMockApi } from './test-client';

/** Contract routes the console never calls: the agents', the identity providers' and OpenAPI. */
const NOT_CALLED_BY_THE_CONSOLE: RouteName[] = [
  'health',
  'liveness',
  'readiness',
  'openapi',
  'registerAgent',
  'agentBundleManifest',
  'agentBundleDownload',
  'agentInstallScript',
  'uploadRecordingVideo',
  'oidcCallback',
  'samlAcs',
  'samlMetadata',
];

const { api, call, callOk } = serveMockApi();
const DAY = 86_400_000;

describe('mock API coverage', () => {
  it('answers every contract route the console calls, once', () => {
    const names = Object.entries(routes).map(([name]) => name);
    const expected = names.filter((name) => !NOT_CALLED_BY_THE_CONSOLE.includes(name as RouteName)).sort();
    expect([...api.routes].sort()).toEqual(expected);
    expect(new Set(api.routes).size).toBe(api.routes.length);
    expect(routeList.length).toBe(names.length);
  });

  it('mocks every route in the console API table with the same method and path', () => {
    for (const ref of Object.values(API)) {
      const mocked: { method: string; path: string } | undefined = (
        MOCK_ROUTES as Record<string, { method: string; path: string }>
      )[ref.name];
      expect(mocked, ref.name).toEqual(expect.objectContaining({ method: ref.method, path: ref.path }));
    }
  });
});

describe('mock sign-in', () => {
  it('accepts any email with any non-empty password and answers an administrator', async () => {
    const body = (await callOk('login', { body: { email: 'Someone.New@Example.org', password: 'x' }, as: null })) as {
      response: {
        user: {
          email: string;
          roles: { name: string }[];
          effectivePermissions: string[];
          authentication_token: string;
        };
      };
    };
    const user = body.response.user;
    expect(user.email).toBe('someone.new@example.org');
    expect(user.roles.map((r) => r.name)).toContain('admin');
    expect(user.effectivePermissions).toEqual([...PERMISSIONS]);
    expect(callerOf(user.authentication_token)).toBe('someone.new@example.org');
    const me = (await callOk('me', { as: 'someone.new@example.org' })) as { user: { email: string } };
    expect(me.user.email).toBe('someone.new@example.org');
  });

  it('refuses an empty password with response.errors, as the server words it', async () => {
    const answer = await call('login', { body: { email: 'a@b.c', password: '' }, as: null });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, response: { errors: ['Password is required'] } });
  });

  it('keeps API calls it does not know from reaching the server', async () => {
    const answer = await fetch(new URL('api/openapi.json', TEST_BASE), { headers: { 'authentication-token': 'x' } });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({
      message: 'Mock data does not answer GET /gatehouse/api/openapi.json.',
    });
  });

  it('answers 401 to a signed-in call without a mock token', async () => {
    expect((await call('listUsers', { as: null })).status).toBe(401);
    expect(
      (await call('listUsers', { as: null, headers: { 'authentication-token': 'a-real-server-token' } })).status,
    ).toBe(401);
    expect((await call('publicSettings', { as: null })).status).toBe(200);
  });
});

describe('mock answers match the contract', () => {
  it('answers every read the console makes with a shape the contract accepts', async () => {
    const { state } = api;
    const ssh = state.recordings.find((row) => row.type === 'ssh' && row.ended_on !== null);
    const agent = state.agents[0];
    expect(ssh && agent).toBeTruthy();
    const id = ssh?.id ?? '';
    const reads: [keyof typeof MOCK_ROUTES, Parameters<typeof callOk>[1]][] = [
      ['me', {}],
      ['security', {}],
      ['ssoProvider', { as: null }],
      ['getSsoConfig', {}],
      ['metadata', {}],
      ['navigationCounts', {}],
      ['permissionCatalogue', {}],
      ['listPods', {}],
      ['podLogs', { params: { name: 'api' }, query: { limit: '50' } }],
      ['listUsers', { query: { limit: '10', sort: 'email' } }],
      ['userRoles', { params: { email: ADMIN } }],
      ['userReach', { params: { email: ADMIN } }],
      ['myAccess', {}],
      ['listSshKeys', {}],
      ['listRoles', {}],
      ['getRole', { params: { name: 'operator' } }],
      ['listGroups', {}],
      ['listApiKeys', {}],
      ['getSettings', {}],
      ['publicSettings', { as: null }],
      ['getLicense', {}],
      ['getIngressTls', {}],
      ['getVersions', {}],
      ['getSigningKey', {}],
      ['getDashboard', { query: { tz: 'UTC' } }],
      ['listAgents', {}],
      ['getAgentConfig', { params: { id: agent?.id ?? '' } }],
      ['listTunnels', {}],
      ['listAllTunnels', {}],
      ['listRecordings', { query: { limit: '25', with_total: 'true' } }],
      ['getRecordingDetail', { params: { id } }],
      ['playbackAvailable', { params: { id } }],
      ['openRecording', { params: { id } }],
      ['seekRecording', { params: { id }, query: { t: '2' } }],
      ['searchRecording', { params: { id }, query: { q: 'e' } }],
      ['verifyRecording', { params: { id } }],
      ['testLdap', { body: { ldap_host: 'ldap.acme.example' } }],
      ['testOidc', { body: {} }],
      ['listOutbox', { query: { limit: '50' } }],
      ['getOutboxMessage', { params: { id: state.outbox[0]?.id ?? '' } }],
    ];
    for (const [name, options] of reads) await expect(callOk(name, options), name).resolves.toBeDefined();
  });
});

describe('mock data', () => {
  const state = createMockState(TEST_NOW);

  it('is the same on every load (seeded)', () => {
    const again = createMockState(TEST_NOW);
    expect(again.recordings.map((r) => r.id)).toEqual(state.recordings.map((r) => r.id));
    expect(again.users.map((u) => u.email)).toEqual(state.users.map((u) => u.email));
  });

  it('has 40 users, roles with catalogue permissions, and nested groups', () => {
    expect(state.users).toHaveLength(40);
    expect(new Set(state.users.map((u) => u.email)).size).toBe(40);
    expect(state.users.filter((u) => u.roles.includes('admin')).length).toBeGreaterThanOrEqual(2);
    for (const role of state.roles) for (const p of role.permissions) expect(PERMISSIONS).toContain(p);
    expect(state.groups.find((g) => g.name === 'Platform')?.groups).toEqual(['SRE', 'Database admins']);
  });

  it('has 25 hosts, five of them disconnected, and tunnels of every type', () => {
    expect(state.agents).toHaveLength(25);
    expect(state.agents.filter((a) => !a.connected)).toHaveLength(5);
    expect(new Set(state.tunnels.map((t) => t.type))).toEqual(new Set(['ssh', 'rdp', 'generic', 'agent']));
  });

  it('has about 500 sessions over 30 days, SSH and RDP, some live and two live for over a day', () => {
    expect(state.recordings).toHaveLength(500);
    const starts = state.recordings.map((r) => Date.parse(r.started_on));
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(TEST_NOW - 30 * DAY);
    expect(Math.max(...starts)).toBeLessThanOrEqual(TEST_NOW);
    const live = state.recordings.filter((r) => r.ended_on === null);
    expect(live.length).toBe(8);
    expect(live.filter((r) => TEST_NOW - Date.parse(r.started_on) > DAY)).toHaveLength(2);
    expect(state.recordings.filter((r) => r.type === 'ssh').length).toBeGreaterThan(250);
    expect(state.recordings.filter((r) => r.type === 'rdp').length).toBeGreaterThan(30);
    for (const r of state.recordings) if (r.ended_on) expect(Date.parse(r.ended_on)).toBeLessThanOrEqual(TEST_NOW);
  });

  it('shows the components healthy but one', () => {
    expect(state.pods.filter((p) => p.status !== 'Running').map((p) => p.name)).toEqual(['redis']);
  });
});
