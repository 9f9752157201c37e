import { describe, expect, it } from 'vitest';
import { ADMIN, serveMockApi } from './test-client';

const { api, call, callOk } = serveMockApi();

type Users = { users: { email: string; groups: string[] }[]; total: number };

describe('mock writes change what the screens read', () => {
  it('creates a user who then appears in the list, and deletes them', async () => {
    const before = (await callOk('listUsers')) as Users;
    await callOk('createUser', {
      body: { email: 'new.person@acme.example', password: 'long-enough', roles: ['auditor'] },
    });
    const after = (await callOk('listUsers', { query: { q: 'new.person' } })) as Users;
    expect(after.users.map((u) => u.email)).toEqual(['new.person@acme.example']);
    expect((await callOk('listUsers')) as Users).toMatchObject({ total: before.total + 1 });
    expect(
      (await call('createUser', { body: { email: 'new.person@acme.example', password: 'long-enough' } })).status,
    ).toBe(409);
    expect((await call('createUser', { body: { email: 'short@acme.example', password: 'short' } })).status).toBe(400);
    await callOk('deleteUser', { params: { email: 'new.person@acme.example' } });
    expect(((await callOk('listUsers')) as Users).total).toBe(before.total);
  });

  it('refuses to delete the caller', async () => {
    expect((await call('deleteUser', { params: { email: ADMIN } })).status).toBe(409);
  });

  it('pages, searches and sorts users on the server', async () => {
    const page = (await callOk('listUsers', {
      query: { limit: '5', offset: '5', sort: 'email', order: 'desc' },
    })) as Users;
    const all = ((await callOk('listUsers', { query: { sort: 'email', order: 'desc' } })) as Users).users;
    expect(page.users.map((u) => u.email)).toEqual(all.slice(5, 10).map((u) => u.email));
    expect(page.total).toBe(all.length);
  });

  it('creates, nests and deletes groups, refusing a cycle by name', async () => {
    await callOk('createGroup', { body: { name: 'Night shift' } });
    await callOk('addChildGroups', { params: { name: 'SRE' }, body: { groups: ['Night shift'] } });
    const cycle = await call('addChildGroups', { params: { name: 'Night shift' }, body: { groups: ['Platform'] } });
    expect(cycle.status).toBe(409);
    expect((cycle.body as { message: string }).message).toContain('Night shift → SRE → Platform');
    await callOk('addGroupUsers', { params: { name: 'Night shift' }, body: { users: [ADMIN] } });
    const reach = (await callOk('userReach', { params: { email: ADMIN } })) as { groups: string[] };
    expect(reach.groups).toEqual(expect.arrayContaining(['Night shift', 'SRE', 'Platform']));
    await callOk('deleteGroup', { params: { name: 'Night shift' } });
    const groups = (await callOk('listGroups')) as { groups: { name: string; groups: string[] }[] };
    expect(groups.groups.map((g) => g.name)).not.toContain('Night shift');
    expect(groups.groups.find((g) => g.name === 'SRE')?.groups).not.toContain('Night shift');
  });

  it('creates roles with catalogue permissions only, and keeps the built-in ones', async () => {
    await callOk('createRole', { body: { name: 'viewer', permissions: 'list-host,list-recording' } });
    const role = (await callOk('getRole', { params: { name: 'viewer' } })) as { role: { permissions: string[] } };
    expect(role.role.permissions).toEqual(['list-recording', 'list-host']);
    expect((await call('createRole', { body: { name: 'bad', permissions: ['fly'] } })).status).toBe(400);
    expect((await call('deleteRole', { params: { name: 'admin' } })).status).toBe(400);
    await callOk('deleteRole', { params: { name: 'viewer' } });
    expect((await call('getRole', { params: { name: 'viewer' } })).status).toBe(404);
  });

  it('creates an ssh tunnel with a generated key, changes it and deletes it', async () => {
    const host = api.state.agents[0]?.id ?? '';
    const created = (await callOk('createTunnel', {
      params: { type: 'ssh' },
      body: { name: 'new shell', host_id: host, ssh_login: 'ops', ssh_auth: 'key' },
    })) as { definition: { id: string; port: number; public_key: string | null } };
    expect(created.definition.port).toBe(22);
    expect(created.definition.public_key).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI/);
    const { id } = created.definition;
    await callOk('updateTunnel', { params: { id }, body: { name: 'renamed shell', port: 2200 } });
    const lists = (await callOk('listAllTunnels')) as { ssh: { id: string; name: string; port: number }[] };
    expect(lists.ssh.find((t) => t.id === id)).toMatchObject({ name: 'renamed shell', port: 2200 });
    expect(
      (await call('createTunnel', { params: { type: 'generic' }, body: { name: 'x', host_id: host } })).status,
    ).toBe(400);
    await callOk('deleteTunnel', { params: { id } });
    expect((await call('deleteTunnel', { params: { id } })).status).toBe(404);
  });

  it('generates a registration key shown once, and deletes it', async () => {
    const key = (await callOk('createApiKey', { body: { description: 'Lab' } })) as {
      uuid: string;
      key: string;
      created: string;
      expires_at: string;
      uses: number;
      uses_left: number;
    };
    expect(key.key).toMatch(/^ghk_[\w-]{43}$/);
    // The server's defaults: one agent within 24 hours.
    expect(Date.parse(key.expires_at) - Date.parse(key.created)).toBe(24 * 3_600_000);
    expect(key).toMatchObject({ uses: 1, uses_left: 1 });
    const listed = (await callOk('listApiKeys')) as { keys: { uuid: string; key?: string }[] };
    expect(listed.keys[0]).toMatchObject({ uuid: key.uuid });
    expect(listed.keys[0]).not.toHaveProperty('key');
    await callOk('deleteApiKey', { params: { uuid: key.uuid } });
    expect((await call('deleteApiKey', { params: { uuid: key.uuid } })).status).toBe(404);
  });

  it('gives a registration key the limits chosen, within the contract’s, and no permissions', async () => {
    const key = (await callOk('createApiKey', { body: { description: 'Rack', expires_in_hours: 168, uses: 12 } })) as {
      created: string;
      expires_at: string;
      uses: number;
      uses_left: number;
    };
    expect(Date.parse(key.expires_at) - Date.parse(key.created)).toBe(168 * 3_600_000);
    expect(key).toMatchObject({ uses: 12, uses_left: 12 });
    for (const body of [
      { description: 'x', expires_in_hours: 0 },
      { description: 'x', expires_in_hours: 8761 },
      { description: 'x', uses: 1.5 },
      { description: 'x', uses: 10_001 },
      { description: 'x', permissions: ['list-host'] },
    ])
      expect((await call('createApiKey', { body })).status, JSON.stringify(body)).toBe(400);
  });

  it('reads and deletes outbox messages, and keeps reset mail there once no SMTP host is set', async () => {
    const listed = (await callOk('listOutbox')) as {
      smtp_configured: boolean;
      total: number;
      messages: { id: string; to: string; text?: string }[];
    };
    expect(listed.smtp_configured).toBe(true);
    expect(listed.total).toBe(listed.messages.length);
    expect(listed.messages[0]).not.toHaveProperty('text');
    const first = listed.messages[0]?.id ?? '';
    const message = (await callOk('getOutboxMessage', { params: { id: first } })) as { text: string };
    expect(message.text).toMatch(/#\/(reset-password|verify-email)\?token=/);
    await callOk('deleteOutboxMessage', { params: { id: first } });
    expect((await call('getOutboxMessage', { params: { id: first } })).status).toBe(404);
    expect((await call('deleteOutboxMessage', { params: { id: first } })).status).toBe(404);

    await callOk('saveSettings', { body: { smtp: { host: '' } } });
    const user = api.state.users.find((u) => u.email !== ADMIN)?.email ?? '';
    await callOk('resetUserPassword', { params: { email: user } });
    const after = (await callOk('listOutbox')) as {
      smtp_configured: boolean;
      messages: { to: string; subject: string }[];
    };
    expect(after.smtp_configured).toBe(false);
    expect(after.messages[0]).toMatchObject({ to: user, subject: 'Reset your Gatehouse password' });
  });

  it('saves host configuration, checking it as the contract does', async () => {
    const agent = api.state.agents.find((a) => a.connected);
    const saved = (await callOk('saveAgentConfig', {
      params: { id: agent?.id ?? '' },
      body: { whitelist: [443, 22, 22] },
    })) as {
      whitelist: number[];
      applied: boolean;
    };
    expect(saved).toMatchObject({ whitelist: [22, 443], applied: true });
    expect(
      (await call('saveAgentConfig', { params: { id: agent?.id ?? '' }, body: { recording_fps: 99 } })).status,
    ).toBe(400);
  });

  it('adds and removes an SSH key of the caller', async () => {
    const before = (await callOk('listSshKeys')) as { keys: { id: string }[] };
    const publicKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBcdefghijklmnopqrstuvwxyz0123456789ABCDEFG me@laptop';
    const added = (await callOk('addSshKey', { body: { name: 'Work', public_key: publicKey } })) as {
      key: { id: string; fingerprint: string };
    };
    expect(added.key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect((await call('addSshKey', { body: { name: 'Again', public_key: publicKey } })).status).toBe(409);
    await callOk('deleteSshKey', { params: { id: added.key.id } });
    expect(((await callOk('listSshKeys')) as { keys: unknown[] }).keys).toHaveLength(before.keys.length);
  });

  it('saves settings, security settings and the sign-in configuration', async () => {
    const saved = (await callOk('saveSettings', { body: { allow_signup: true, smtp: { password: 'secret' } } })) as {
      allow_signup: boolean;
      smtp: { password_set?: boolean; password?: string };
    };
    expect(saved.allow_signup).toBe(true);
    expect(saved.smtp.password).toBeUndefined();
    expect(((await callOk('publicSettings', { as: null })) as { allow_signup: boolean }).allow_signup).toBe(true);
    await callOk('saveSecurity', { body: { api_limit_single_use: true } });
    const token = (await callOk('authorize', { body: { password: 'anything' } })) as { kind: string };
    expect(token.kind).toBe('oneshot');
    await callOk('saveSecurity', { body: { api_limit_single_use: false } });
    const config = (await callOk('saveSsoConfig', {
      body: { oidc_config: { client_id: 'console', client_secret: 's' } },
    })) as {
      config: { oidc_config: { client_id: string; client_secret_set: boolean } };
    };
    expect(config.config.oidc_config).toMatchObject({ client_id: 'console', client_secret_set: true });
    await callOk('saveVersion', { body: { agent_version: '2.0.1' } });
    expect(((await callOk('getVersions')) as { desired_agent_version: string }).desired_agent_version).toBe('2.0.1');
  });
});
