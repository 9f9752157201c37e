import { randomBytes, randomUUID } from 'node:crypto';
import { ADMIN_ROLE, PERMISSIONS } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareDatabase } from '../../server.js';
import type { Services } from '../../services.js';
import { openTestDatabase, testConfig } from '../../test/harness.js';
import { type Principal, toPrincipal } from '../auth/principal.js';
import { hashToken } from '../auth/tokens.js';
import type { TunnelWithMembers } from '../tunnels/tunnels.repository.js';
import { AccessPolicy } from './access-policy.js';
import { MAX_CREDENTIAL_LENGTH, agentFromCredential } from './agent-credential.js';
import { hostsGivenByGroup } from './group-reach.js';
import { definitionTypeFor } from './uses.js';

/**
 * The access policy and its grant guards asked directly, over the real repositories on an
 * in-memory PGlite (no HTTP): every answer and every denial's audit entry, precisely. The security
 * suites beside it attack the same rules through the server; this one is fast enough for
 * `npm run mutation` to run against each mutant of the policy.
 */

let s: Services;
let drop: () => Promise<void>;
const ids: Record<string, string> = {};
const agents: Record<string, string> = {};
const credentials: Record<string, string> = {};
const defs: Record<string, TunnelWithMembers> = {};
let admin: Principal;

/** A principal as the binder builds it, from the user's stored roles. */
async function principalOf(email: string): Promise<Principal> {
  const user = (await s.repositories.users.findByEmail(email))!;
  return toPrincipal(user, await s.repositories.users.rolesOf(user.id), 'hash', new Date(Date.now() + 3_600_000));
}

async function user(email: string, roles: string[]): Promise<void> {
  ids[email] = (await s.repositories.users.create({ email, name: null, passwordHash: null }, roles)).id;
}

async function agent(hostname: string, credential = `gha_${randomBytes(24).toString('base64url')}`): Promise<void> {
  credentials[hostname] = credential;
  agents[hostname] = await s.repositories.agents.create({
    hostname,
    os: 1,
    version: '2.0.0',
    credentialHash: hashToken(credential),
    config: null,
    registeredWith: randomUUID(),
  });
}

/** The newest policy.deny rows, newest first. */
async function denials(n = 1) {
  return s.database.query<{
    actor_id: string | null;
    actor: string;
    target: string;
    outcome: string;
    source: string | null;
    detail: { what: string; why: string };
  }>(
    "SELECT actor_id, actor, target, outcome, source, detail FROM audit_log WHERE action = 'policy.deny' ORDER BY id DESC LIMIT $1",
    [n],
  );
}

async function define(
  key: string,
  type: 'ssh' | 'rdp' | 'generic' | 'agent',
  fields: { host: string; group?: string; users?: string[]; forwarding?: boolean; port?: number },
): Promise<void> {
  const created = await s.tunnels.create(admin, type, {
    name: key,
    host_id: agents[fields.host]!,
    ...(type === 'ssh' ? { ssh_login: 'deploy' } : {}),
    ...(fields.port ? { port: fields.port } : {}),
    ...(fields.group ? { group: fields.group } : {}),
    ...(fields.forwarding ? { allow_port_forwarding: true } : {}),
  });
  if (fields.users)
    await s.tunnels.setUsers(
      admin,
      created.definition.id,
      fields.users.map((e) => ids[e]!),
    );
  defs[key] = (await s.repositories.tunnels.find(created.definition.id))!;
}

beforeAll(async () => {
  const opened = await openTestDatabase('pglite');
  drop = opened.drop;
  ({ services: s } = await prepareDatabase(testConfig(), { database: opened.database }));
  admin = toPrincipal(
    { id: randomUUID(), email: 'root@example.test', name: null },
    [{ name: ADMIN_ROLE, permissions: [...PERMISSIONS] }],
    'hash',
    new Date(Date.now() + 3_600_000),
  );
  await s.repositories.roles.ensure('viewer', ['list-recording'], false);
  await s.repositories.roles.ensure('opener', ['create-tunnel'], false);
  await s.repositories.roles.ensure('lister', ['list-recording', 'list-host'], false);
  await s.repositories.roles.ensure('grouper', ['modify-group', 'list-recording'], false);
  for (const host of ['web-01', 'web-02', 'db-01', 'db-02', 'mail-01', 'app-01', 'app-02', 'app-03']) await agent(host);
  await user('direct@example.test', ['user']);
  await user('member@example.test', ['user']);
  await user('nested@example.test', ['user']);
  await user('nobody@example.test', ['user']);
  await user('no-open@example.test', ['viewer']);
  await user('two-roles@example.test', ['viewer', 'opener']);
  await user('boss@example.test', ['user', ADMIN_ROLE]);
  await user('watcher@example.test', ['lister']);
  await user('grouper@example.test', ['user', 'grouper']);
  // ops ⊂ platform: members of ops are members of platform.
  for (const g of ['platform', 'ops', 'db-team', 'empty']) await s.groups.create(g);
  await s.groups.addChildren(admin, 'platform', ['ops']);
  await s.groups.addUsers(admin, 'platform', ['member@example.test']);
  await s.groups.addUsers(admin, 'ops', ['nested@example.test', 'grouper@example.test']);
  await s.groups.addAgents(admin, 'db-team', [agents['db-02']!]);
  await define('web-01 shell', 'ssh', {
    host: 'web-01',
    users: ['direct@example.test', 'no-open@example.test', 'two-roles@example.test'],
  });
  await define('web-02 shell', 'ssh', { host: 'web-02', group: 'platform', forwarding: true });
  await define('db-01 desktop', 'rdp', { host: 'db-01', users: ['direct@example.test'] });
  await define('db-01 orders', 'generic', { host: 'db-01', port: 5432, group: 'ops' });
  await define('db-01 backups', 'agent', { host: 'db-01', port: 5432 });
  await s.tunnels.setAgents(admin, defs['db-01 backups']!.id, [agents['web-01']!, agents['web-02']!]);
  defs['db-01 backups'] = (await s.repositories.tunnels.find(defs['db-01 backups']!.id))!;
}, 120_000);
afterAll(async () => drop?.());

describe('who may use a host through a definition (admit)', () => {
  const person = (email: string) => ({ id: ids[email]!, email });

  it('admits a user named on the definition, and through a group or a nested group', async () => {
    expect((await s.policy.admit(person('direct@example.test'), 'web-01', 'shell'))?.name).toBe('web-01 shell');
    expect((await s.policy.admit(person('member@example.test'), 'web-02', 'exec'))?.name).toBe('web-02 shell');
    expect((await s.policy.admit(person('nested@example.test'), 'web-02', 'sftp'))?.name).toBe('web-02 shell');
    expect((await s.policy.admit(person('nested@example.test'), defs['db-01 orders']!, 'generic'))?.name).toBe(
      'db-01 orders',
    );
  });

  it('a signed-in principal is asked about by its user id', async () => {
    const p = await principalOf('direct@example.test');
    expect((await s.policy.admit(p, defs['web-01 shell']!, 'shell'))?.id).toBe(defs['web-01 shell']!.id);
  });

  it('refuses someone no definition admits, saying so in the audit trail with who and from where', async () => {
    expect(await s.policy.admit(person('nobody@example.test'), 'web-01', 'shell', { source: '127.0.0.9' })).toBe(
      undefined,
    );
    expect((await denials())[0]).toEqual({
      actor_id: ids['nobody@example.test'],
      actor: 'nobody@example.test',
      target: 'web-01',
      outcome: 'denied',
      source: '127.0.0.9',
      detail: { what: 'tunnel.shell', why: 'no tunnel definition admits the user, directly or through a group' },
    });
    // A definition handed in is named by its name; without a context the source is null.
    expect(await s.policy.admit(person('nobody@example.test'), defs['db-01 desktop']!, 'rdp')).toBe(undefined);
    expect((await denials())[0]).toMatchObject({
      target: 'db-01 desktop',
      source: null,
      detail: { what: 'tunnel.rdp' },
    });
  });

  it('says when a host has no definition of that type at all', async () => {
    expect(await s.policy.admit(person('direct@example.test'), 'mail-01', 'shell')).toBe(undefined);
    expect((await denials())[0]!.detail.why).toBe('no ssh tunnel definition exists for mail-01');
    expect(await s.policy.admit(person('direct@example.test'), 'web-01', 'rdp')).toBe(undefined);
    expect((await denials())[0]!.detail.why).toBe('no rdp tunnel definition exists for web-01');
  });

  it('finds rdp and generic definitions by host name whatever its case, and never one of another type', async () => {
    expect((await s.policy.admit(person('direct@example.test'), 'DB-01', 'rdp'))?.name).toBe('db-01 desktop');
    expect((await s.policy.admit(person('nested@example.test'), 'Db-01', 'generic'))?.name).toBe('db-01 orders');
    // The rdp definition admits direct@, but not for a shell, and not as a generic tunnel.
    expect(await s.policy.admit(person('direct@example.test'), defs['db-01 desktop']!, 'shell')).toBe(undefined);
    expect(await s.policy.admit(person('direct@example.test'), 'db-01', 'generic')).toBe(undefined);
  });

  it('forwarding needs a definition that allows it, and says so', async () => {
    expect(await s.policy.admit(person('direct@example.test'), 'web-01', 'forward')).toBe(undefined);
    expect((await denials())[0]!.detail).toEqual({
      what: 'tunnel.forward',
      why: 'no definition that admits the user allows port forwarding',
    });
    expect((await s.policy.admit(person('member@example.test'), 'web-02', 'forward'))?.name).toBe('web-02 shell');
    // Someone not admitted at all hears that, not the forwarding reason.
    expect(await s.policy.admit(person('nobody@example.test'), 'web-02', 'forward')).toBe(undefined);
    expect((await denials())[0]!.detail.why).toBe('no tunnel definition admits the user, directly or through a group');
  });

  it('opening anything needs create-tunnel from some role (admins have it)', async () => {
    expect(await s.policy.admit(person('no-open@example.test'), 'web-01', 'shell')).toBe(undefined);
    expect((await denials())[0]!.detail.why).toBe('no role of the user holds create-tunnel');
    // One role of two giving it is enough.
    expect((await s.policy.admit(person('two-roles@example.test'), 'web-01', 'shell'))?.name).toBe('web-01 shell');
  });

  it('maps every use to the type of definition that serves it', () => {
    expect(['shell', 'exec', 'sftp', 'forward', 'rdp', 'generic'].map((u) => definitionTypeFor(u as never))).toEqual([
      'ssh',
      'ssh',
      'ssh',
      'ssh',
      'rdp',
      'generic',
    ]);
  });
});

describe('which agent may speak (admitAgent, agentFromCredential)', () => {
  const as = (host: string) => ({ id: agents[host]!, hostname: host });

  it('admits each agent listed on an agent tunnel, and no other', async () => {
    expect(await s.policy.admitAgent(as('web-01'), defs['db-01 backups']!)).toBe(true);
    expect(await s.policy.admitAgent(as('web-02'), defs['db-01 backups']!)).toBe(true);
    expect(await s.policy.admitAgent(as('db-02'), defs['db-01 backups']!, { source: '127.0.0.7' })).toBe(false);
    expect((await denials())[0]).toEqual({
      actor_id: null,
      actor: 'agent:db-02',
      target: 'db-01 backups',
      outcome: 'denied',
      source: '127.0.0.7',
      detail: { what: 'tunnel.agent', why: 'the agent is not listed' },
    });
  });

  it('a listed agent on a definition that is not an agent tunnel is refused', async () => {
    const generic = { ...defs['db-01 orders']!, agents: [{ id: agents['web-01']!, hostname: 'web-01' }] };
    expect(await s.policy.admitAgent(as('web-01'), generic)).toBe(false);
  });

  it('a credential proves only its own agent; malformed ids and credentials prove nothing', async () => {
    const id = agents['web-01']!;
    const good = credentials['web-01']!;
    expect((await s.policy.agentFromCredential(id, good))?.hostname).toBe('web-01');
    for (const [badId, badCredential] of [
      [id, credentials['web-02']],
      [agents['web-02'], good],
      [undefined, good],
      [id, undefined],
      [42, good],
      [id, ['x']],
      [`x${id}`, good],
      [`${id}x`, good],
      [id.replace(/-/g, ''), good],
      [id, ''],
    ] as [unknown, unknown][]) {
      expect(await agentFromCredential(s.repositories.agents, badId, badCredential), String(badId)).toBe(undefined);
    }
  });

  it('credentials up to the size limit are checked; longer ones are refused unhashed', async () => {
    await agent('long-ok', 'k'.repeat(MAX_CREDENTIAL_LENGTH));
    await agent('too-long', 'k'.repeat(MAX_CREDENTIAL_LENGTH + 1));
    expect(
      (await agentFromCredential(s.repositories.agents, agents['long-ok'], credentials['long-ok']))?.hostname,
    ).toBe('long-ok');
    expect(await agentFromCredential(s.repositories.agents, agents['too-long'], credentials['too-long'])).toBe(
      undefined,
    );
  });
});

describe('which hosts and recordings a person reaches', () => {
  it('an administrator reaches every host, even one no definition names', async () => {
    expect(await s.policy.reach(admin)).toEqual({ all: true });
    expect(await s.policy.reachableAgents(admin)).toBe(undefined);
    expect(await s.policy.reaches(admin, agents['mail-01']!)).toBe(true);
    expect(await s.policy.reaches(admin, null)).toBe(true);
  });

  it('others reach their definitions’ hosts and their groups’ hosts, nothing else', async () => {
    const direct = await principalOf('direct@example.test');
    expect((await s.policy.reachableAgents(direct))?.sort()).toEqual([agents['db-01'], agents['web-01']].sort());
    const nested = await principalOf('nested@example.test');
    expect(await s.policy.reach(nested)).toEqual({
      all: false,
      agentIds: new Set([agents['web-02'], agents['db-01']]),
    });
    expect(await s.policy.reaches(nested, agents['web-02']!)).toBe(true);
    expect(await s.policy.reaches(nested, agents['web-01']!)).toBe(false);
    expect(await s.policy.reaches(nested, null)).toBe(false);
    // A group's own hosts count too.
    await s.groups.addUsers(admin, 'db-team', ['nobody@example.test']);
    expect(await s.policy.reachOfUser(ids['nobody@example.test']!)).toEqual(new Set([agents['db-02']]));
    await s.groups.removeUser(admin, 'db-team', 'nobody@example.test');
    expect(await s.policy.reachOfUser(ids['nobody@example.test']!)).toEqual(new Set());
  });

  it('watching a recording needs list-recording and its host in reach; refusals are audited when asked from a socket', async () => {
    const watcher = await principalOf('watcher@example.test');
    const direct = await principalOf('direct@example.test');
    const onWeb01 = { id: randomUUID(), agentId: agents['web-01']! };
    expect(await s.policy.mayWatch(admin, onWeb01)).toBe(true);
    expect(await s.policy.mayWatch(direct, onWeb01)).toBe(false); // reaches it, but no list-recording
    expect(await s.policy.mayWatch(watcher, onWeb01)).toBe(false); // list-recording, but out of reach
    const count = async () =>
      Number(
        (await s.database.query<{ n: string }>("SELECT count(*) AS n FROM audit_log WHERE action = 'policy.deny'"))[0]!
          .n,
      );
    const before = await count();
    expect(await s.policy.mayWatch(watcher, onWeb01)).toBe(false);
    expect(await count()).toBe(before); // no context (an HTTP list filter): nothing written

    await s.tunnels.setUsers(admin, defs['web-01 shell']!.id, [
      ids['direct@example.test']!,
      ids['watcher@example.test']!,
    ]);
    expect(await s.policy.mayWatch(watcher, onWeb01)).toBe(true);
    expect(await s.policy.mayWatch(watcher, { id: onWeb01.id, agentId: null })).toBe(false);
    expect(await s.policy.mayWatch(watcher, { id: 'rec-2', agentId: agents['db-02']! }, { source: '127.0.0.5' })).toBe(
      false,
    );
    expect((await denials())[0]).toEqual({
      actor_id: ids['watcher@example.test'],
      actor: 'watcher@example.test',
      target: 'rec-2',
      outcome: 'denied',
      source: '127.0.0.5',
      detail: { what: 'recording.watch', why: 'the host is out of reach' },
    });
    expect(await s.policy.mayWatch(direct, onWeb01, {})).toBe(false);
    expect((await denials())[0]!.detail.why).toBe('list-recording is missing');
    await s.tunnels.setUsers(admin, defs['web-01 shell']!.id, [
      ids['direct@example.test']!,
      ids['no-open@example.test']!,
      ids['two-roles@example.test']!,
    ]);
  });

  it('lists the definitions a person may use', async () => {
    const names = async (email: string) =>
      (await s.policy.definitionsFor(await principalOf(email))).map((d) => d.name).sort();
    expect(await names('direct@example.test')).toEqual(['db-01 desktop', 'web-01 shell']);
    expect(await names('nested@example.test')).toEqual(['db-01 orders', 'web-02 shell']);
    expect(await names('nobody@example.test')).toEqual([]);
  });

  it('a denial the audit trail refuses is logged, never thrown at the caller', async () => {
    const error = vi.fn();
    const failing = new AccessPolicy({
      groups: s.repositories.groups,
      tunnels: s.repositories.tunnels,
      agents: s.repositories.agents,
      users: s.repositories.users,
      audit: { append: () => Promise.reject(new Error('database away')) } as never,
      log: { error } as never,
    });
    expect(
      await failing.admit({ id: ids['nobody@example.test']!, email: 'nobody@example.test' }, 'web-01', 'shell'),
    ).toBe(undefined);
    expect(error).toHaveBeenCalledWith(
      { err: expect.objectContaining({ message: 'database away' }) as unknown },
      'the audit trail refused a policy denial',
    );
  });
});

describe('the grant guards', () => {
  const refusal = async (work: Promise<unknown> | (() => void)) => {
    try {
      if (typeof work === 'function') work();
      else await work;
    } catch (error) {
      return { status: (error as { status?: number }).status, message: (error as Error).message };
    }
    return undefined;
  };

  it('a role is given only by someone holding all its permissions; the admin role only by an administrator', async () => {
    const grouper = await principalOf('grouper@example.test');
    expect(
      await refusal(() => s.policy.grants.mayGrantRole(grouper, { name: 'viewer', permissions: ['list-recording'] })),
    ).toBe(undefined);
    expect(
      await refusal(() =>
        s.policy.grants.mayGrantRole(grouper, {
          name: 'mixed',
          permissions: ['list-recording', 'list-host', 'modify-role'],
        }),
      ),
    ).toEqual({
      status: 403,
      message: 'You cannot grant permissions you do not hold yourself: list-host, modify-role.',
    });
    expect(await refusal(() => s.policy.grants.mayGrantRole(grouper, { name: ADMIN_ROLE, permissions: [] }))).toEqual({
      status: 403,
      message: 'Only a holder of the admin role can give or take the admin role.',
    });
    const boss = await principalOf('boss@example.test');
    expect(
      await refusal(() => s.policy.grants.mayGrantRole(boss, { name: ADMIN_ROLE, permissions: [...PERMISSIONS] })),
    ).toBe(undefined);
  });

  it('changing a group needs reach of every host it gives, its ancestors’ and their definitions’ included', async () => {
    const grouper = await principalOf('grouper@example.test'); // in ops ⊂ platform: reaches web-02 and db-01
    expect(await refusal(s.policy.grants.mayGrantGroup(grouper, 'ops'))).toBe(undefined);
    expect(await refusal(s.policy.grants.mayGrantGroup(grouper, 'platform'))).toBe(undefined);
    expect(await refusal(s.policy.grants.mayGrantGroup(grouper, 'empty'))).toBe(undefined); // gives nothing
    expect(await refusal(s.policy.grants.mayGrantGroup(grouper, 'db-team'))).toEqual({
      status: 403,
      message:
        'db-team gives access to hosts you do not reach yourself (db-02): only someone who reaches them can change its members or delete it.',
    });
    // An administrator reaching no host through groups passes every guard.
    expect(await refusal(s.policy.grants.mayGrantGroup(admin, 'db-team'))).toBe(undefined);
    expect(await refusal(s.policy.grants.mayGrantAgents(admin, 'db-team', [agents['mail-01']!]))).toBe(undefined);
    expect(await refusal(s.policy.grants.mayAdmitToHosts(admin, [agents['mail-01']!]))).toBe(undefined);
  });

  it('agents and definitions only for hosts one reaches; unknown ids are named, names sorted and capped at five', async () => {
    const grouper = await principalOf('grouper@example.test');
    expect(await refusal(s.policy.grants.mayGrantAgents(grouper, 'ops', [agents['web-02']!, agents['db-01']!]))).toBe(
      undefined,
    );
    expect(await refusal(s.policy.grants.mayGrantAgents(grouper, 'ops', []))).toBe(undefined);
    expect(await refusal(s.policy.grants.mayGrantAgents(grouper, 'ops', [agents['web-01']!]))).toEqual({
      status: 403,
      message: 'You can only add to or remove from ops hosts you reach yourself; you do not reach web-01.',
    });
    const unknown = randomUUID();
    expect((await refusal(s.policy.grants.mayAdmitToHosts(grouper, [unknown])))?.message).toBe(
      `You can only create or change tunnel definitions for hosts you reach yourself; you do not reach ${unknown}.`,
    );
    const many = ['mail-01', 'app-03', 'app-02', 'app-01', 'db-02', 'web-01'].map((h) => agents[h]!);
    expect((await refusal(s.policy.grants.mayAdmitToHosts(grouper, many)))?.message).toBe(
      'You can only create or change tunnel definitions for hosts you reach yourself; you do not reach ' +
        'app-01, app-02, app-03, db-02, mail-01 and 1 more.',
    );
    const five = ['mail-01', 'app-03', 'app-02', 'app-01', 'db-02'].map((h) => agents[h]!);
    expect((await refusal(s.policy.grants.mayAdmitToHosts(grouper, five)))?.message).toMatch(
      /you do not reach app-01, app-02, app-03, db-02, mail-01\.$/,
    );
  });

  it('an account is acted on only by someone holding all it holds; administrators only by administrators', async () => {
    const grouper = await principalOf('grouper@example.test');
    const target = async (email: string) => ({ id: ids[email]!, email });
    expect(await refusal(s.policy.grants.mayActOnAccount(grouper, await target('boss@example.test')))).toEqual({
      status: 403,
      message: 'boss@example.test is an administrator: only an administrator can do this.',
    });
    expect(await refusal(s.policy.grants.mayActOnAccount(grouper, await target('watcher@example.test')))).toEqual({
      status: 403,
      message: 'watcher@example.test holds permissions you do not hold (list-host): ask an administrator.',
    });
    expect(await refusal(s.policy.grants.mayActOnAccount(grouper, await target('direct@example.test')))).toEqual({
      status: 403,
      message: 'direct@example.test reaches hosts you do not reach yourself (web-01): ask an administrator.',
    });
    // Holding no more: nested@ reaches web-02 and db-01 as grouper does, with the user role only.
    expect(await refusal(s.policy.grants.mayActOnAccount(grouper, await target('nested@example.test')))).toBe(
      undefined,
    );
    expect(await refusal(s.policy.grants.mayActOnAccount(admin, await target('boss@example.test')))).toBe(undefined);
  });

  it('a group gives the hosts of its agents and definitions, and of every group it is nested in', async () => {
    await s.groups.create('deep');
    await s.groups.addChildren(admin, 'ops', ['deep']);
    // A diamond: deep is also nested in db-team, and db-team in platform (both reach platform once).
    await s.groups.addChildren(admin, 'db-team', ['deep']);
    await s.groups.addChildren(admin, 'platform', ['db-team']);
    const given = await hostsGivenByGroup(s.repositories.groups, s.repositories.tunnels, 'deep');
    expect(new Map([...given].sort())).toEqual(
      new Map(
        (
          [
            [agents['db-01']!, 'db-01'],
            [agents['db-02']!, 'db-02'],
            [agents['web-02']!, 'web-02'],
          ] as [string, string][]
        ).sort(),
      ),
    );
    // A definition naming no group (web-01 shell) gives nothing through groups.
    expect(given.has(agents['web-01']!)).toBe(false);
    expect([...(await hostsGivenByGroup(s.repositories.groups, s.repositories.tunnels, 'empty')).keys()]).toEqual([]);
  });
});
