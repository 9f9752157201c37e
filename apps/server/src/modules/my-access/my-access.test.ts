import type { MyAccess } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

describe.each(DATABASES)('my access (GET /api/me/access) on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let web: string;
  let db: string;
  const ids = new Map<string, string>();

  const access = async (token: string) => {
    const res = await server.call<MyAccess>('GET', '/api/me/access', { token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const define = async (type: string, body: Record<string, unknown>) => {
    const res = await server.call<{ definition: { id: string } }>('POST', `/api/tunneldefinition/${type}`, {
      token: admin,
      body,
    });
    expect(res.status).toBe(201);
    return res.body.definition.id;
  };
  const admitUsers = async (definition: string, emails: string[]) => {
    const res = await server.call('PUT', `/api/tunneldefinition/${definition}/users`, {
      token: admin,
      body: { users: emails.map((e) => ids.get(e)) },
    });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'k', uses: 5 } })
    ).body.key;
    const register = async (hostname: string) =>
      (
        await server.call<{ id: string }>('POST', '/api/agent/register', {
          body: { key, hostname, os: 1, version: '2.0.0' },
        })
      ).body.id;
    web = await register('web-01');
    db = await register('db-01');
    await server.createUser('dana@example.test', 'dana-password');
    await server.createUser('gus@example.test', 'gus-password');
    await server.createUser('nemo@example.test', 'nemo-password');
    await server.createUser('ops-lead@example.test', 'lead-password', {
      roles: [],
      permissions: ['modify-tunnel-definition'],
    });
    await server.createUser('viewer@example.test', 'viewer-password', { roles: [], permissions: ['list-host'] });
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    for (const u of users.body.users) ids.set(u.email, u.id);
  });
  afterAll(async () => server.stop());

  it('lists a definition that names the user directly, with ssh, scp, sftp and a Host entry on the real port', async () => {
    const shell = await define('ssh', { name: 'web shell', host_id: web, ssh_login: 'deploy' });
    await admitUsers(shell, ['dana@example.test']);
    const mine = await access(await server.login('dana@example.test', 'dana-password'));
    expect(mine.email).toBe('dana@example.test');
    expect(mine.may_open).toBe(true);
    expect(mine.gateway).toEqual({ host: '127.0.0.1', port: server.sshPort });
    expect(server.sshPort).not.toBe(2222);
    expect(mine.entries).toHaveLength(1);
    const [entry] = mine.entries;
    expect(entry).toMatchObject({
      definition: { id: shell, name: 'web shell', type: 'ssh' },
      host: { id: web, hostname: 'web-01', state: 'disconnected' },
      port: 22,
      ssh_login: 'deploy',
      uses: ['shell', 'exec', 'sftp'],
      via: { direct: true, groups: [] },
    });
    const port = String(server.sshPort);
    expect(entry?.commands).toEqual({
      ssh: `ssh -p ${port} dana@example.test@web-01@127.0.0.1`,
      scp: `scp -P ${port} FILE dana@example.test@web-01@127.0.0.1:`,
      sftp: `sftp -P ${port} dana@example.test@web-01@127.0.0.1`,
      ssh_config: `Host gatehouse-web-01\n    HostName 127.0.0.1\n    Port ${port}\n    User dana@example.test@web-01\n`,
      ssh_alias: 'gatehouse-web-01',
    });
  });

  it('lists what a group gives, nested groups included, and says through which group', async () => {
    await server.call('POST', '/api/group', { token: admin, body: { name: 'dbas' } });
    await server.call('POST', '/api/group', { token: admin, body: { name: 'dbas-eu' } });
    await server.call('PUT', '/api/group/dbas/groups', { token: admin, body: { groups: ['dbas-eu'] } });
    await server.call('PUT', '/api/group/dbas-eu/users', { token: admin, body: { users: ['gus@example.test'] } });
    const rdp = await define('rdp', { name: 'db desktop', host_id: db, group: 'dbas' });
    const pg = await define('generic', { name: 'db postgres', host_id: db, port: 5432, group: 'dbas-eu' });
    const mine = await access(await server.login('gus@example.test', 'gus-password'));
    expect(mine.entries.map((e) => [e.definition.name, e.definition.type, e.via, e.uses])).toEqual([
      ['db postgres', 'generic', { direct: false, groups: ['dbas-eu'] }, ['generic']],
      ['db desktop', 'rdp', { direct: false, groups: ['dbas'] }, ['rdp']],
    ]);
    const server_url = 'http://console.example.test';
    expect(mine.server_url).toBe(server_url);
    expect(mine.entries[1]?.commands).toEqual({
      tunnel: `npx gatehouse tunnel 'db desktop' --server ${server_url} --email gus@example.test`,
      desktop_path: `/desktop/${rdp}`,
    });
    expect(mine.entries[0]?.commands).toEqual({
      tunnel: `npx gatehouse tunnel 'db postgres' --server ${server_url} --email gus@example.test`,
    });
    expect(pg).toBeTruthy();
  });

  it('says port forwarding where the definition allows it, and never lists agent tunnels', async () => {
    const fwd = await define('ssh', { name: 'db fwd', host_id: db, ssh_login: 'ops', allow_port_forwarding: true });
    await admitUsers(fwd, ['gus@example.test']);
    const agentTunnel = await define('agent', { name: 'db sync', host_id: db, port: 873 });
    await admitUsers(agentTunnel, ['gus@example.test']);
    const mine = await access(await server.login('gus@example.test', 'gus-password'));
    expect(mine.entries.find((e) => e.definition.id === fwd)?.uses).toEqual(['shell', 'exec', 'sftp', 'forward']);
    expect(mine.entries.some((e) => e.definition.id === agentTunnel)).toBe(false);
  });

  it('answers no entries (never an error) to a user without reach, and names whom to ask', async () => {
    const mine = await access(await server.login('nemo@example.test', 'nemo-password'));
    expect(mine.entries).toEqual([]);
    expect(mine.may_open).toBe(true);
    expect(mine.contacts).toEqual([ADMIN.email, 'ops-lead@example.test']);
  });

  it('marks access a role change disabled: admitted by a definition, but no role holds create-tunnel', async () => {
    const shell = await define('ssh', { name: 'viewer shell', host_id: web, ssh_login: 'deploy' });
    await admitUsers(shell, ['viewer@example.test']);
    const token = await server.login('viewer@example.test', 'viewer-password');
    const before = await access(token);
    expect(before.may_open).toBe(false);
    expect(before.entries.map((e) => e.definition.id)).toEqual([shell]);
    // The gateway's own decision agrees: the policy refuses it for the same reason.
    const admitted = await server.services.policy.admit(
      { id: ids.get('viewer@example.test')!, email: 'viewer@example.test' },
      'web-01',
      'shell',
    );
    expect(admitted).toBeUndefined();
    await server.call('PUT', '/api/role/user/users', { token: admin, body: { users: ['viewer@example.test'] } });
    expect((await access(token)).may_open).toBe(true);
  });

  it('drops a definition as soon as it is deleted or the user is taken off it', async () => {
    const token = await server.login('dana@example.test', 'dana-password');
    const temp = await define('generic', { name: 'temp', host_id: web, port: 8080 });
    await admitUsers(temp, ['dana@example.test']);
    expect((await access(token)).entries.map((e) => e.definition.name)).toContain('temp');
    await admitUsers(temp, []);
    expect((await access(token)).entries.map((e) => e.definition.name)).not.toContain('temp');
    await admitUsers(temp, ['dana@example.test']);
    expect((await server.call('DELETE', `/api/tunneldefinition/${temp}`, { token: admin })).status).toBe(200);
    expect((await access(token)).entries.map((e) => e.definition.name)).not.toContain('temp');
  });

  it('refuses a caller without a token', async () => {
    expect((await server.call('GET', '/api/me/access')).status).toBe(401);
  });
});

describe('my access: the gateway address clients use', () => {
  let server: TestServer;
  afterAll(async () => server.stop());

  it('takes GATEHOUSE_SSH_PUBLIC_ADDRESS over the listening address, and the public URL when listening everywhere', async () => {
    server = await startTestServer('pglite', {
      sshHost: '0.0.0.0',
      sshPublicAddress: { host: 'ssh.example.test', port: 443 },
    });
    const admin = await server.login();
    const first = await server.call<MyAccess>('GET', '/api/me/access', { token: admin });
    expect(first.body.gateway).toEqual({ host: 'ssh.example.test', port: 443 });
    await server.stop();
    server = await startTestServer('pglite', { sshHost: '0.0.0.0' });
    const token = await server.login();
    const second = await server.call<MyAccess>('GET', '/api/me/access', { token });
    expect(second.body.gateway).toEqual({ host: 'console.example.test', port: server.sshPort });
    // The public URL setting, saved by an administrator, wins over the environment's.
    const saved = await server.call('POST', '/api/settings', {
      token,
      body: { public_url: 'https://gatehouse.example.org' },
    });
    expect(saved.status).toBeLessThan(300);
    const third = await server.call<MyAccess>('GET', '/api/me/access', { token });
    expect(third.body.gateway.host).toBe('gatehouse.example.org');
    expect(third.body.server_url).toBe('https://gatehouse.example.org');
  });
});
