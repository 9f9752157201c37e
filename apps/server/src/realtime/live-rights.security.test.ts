import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AGENT_CONNECT_PATH, AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LiveRecording } from '../recordings/recordings.service.js';
import type { RunningServer } from '../server.js';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { ADMIN, DATABASES, type TestServer, startInstances, startTestServer } from '../test/harness.js';
import { type Sshd, ssh, startSshd, userKey } from '../test/sshd.js';
import { REVOKED_ACTION } from './live-rights.js';
import { TUNNEL_CONNECT_PATH } from './tunnel-endpoint.js';

/** Every right withdrawn must reach the live connection within this many milliseconds. */
const WITHIN_MS = 1000;

type Chunk = { recording_id: string; seq: number };

/** A console watching one session: what it received, and how its socket ended. */
interface Watcher {
  socket: Socket;
  chunks: Chunk[];
  errors: { recording_id?: string; message: string }[];
  revoked: Promise<{ message: string }>;
  disconnected: Promise<number>;
}

function once<T>(socket: Socket, event: string, ms = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Opens a console socket with the token and watches the recording, once its replay arrived. */
async function watch(url: string, token: string, recordingId: string): Promise<Watcher> {
  const socket = connectSocket(url, { auth: { token }, transports: ['websocket'], reconnection: false });
  const watcher: Watcher = {
    socket,
    chunks: [],
    errors: [],
    revoked: new Promise((resolve) => socket.on('access_revoked', resolve)),
    disconnected: new Promise((resolve) => socket.on('disconnect', () => resolve(Date.now()))),
  };
  socket.on('record_out', (chunk: Chunk) => watcher.chunks.push(chunk));
  socket.on('record_attach_error', (error: { message: string }) => watcher.errors.push(error));
  await once(socket, 'connect');
  socket.emit('new_record_attach', { recording_id: recordingId, replay: true });
  await eventually(
    async () => watcher.chunks.length + watcher.errors.length,
    (n) => n > 0,
  );
  expect(watcher.errors, 'the watch was refused').toEqual([]);
  return watcher;
}

/** Writes output into a live recording until this many new live chunks reached the watcher. */
async function produce(recording: LiveRecording, watcher: Watcher, chunks = 1): Promise<void> {
  const before = watcher.chunks.filter((c) => c.seq > 0).length;
  await eventually(
    async () => {
      recording.recorder.output(Buffer.from(`tick ${Date.now()}\r\n`));
      return watcher.chunks.filter((c) => c.seq > 0).length;
    },
    (n) => n >= before + chunks,
  );
}

/** A WebSocket to the server that resolves once open, or rejects with the refusal's body. */
function openWs(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (c: Buffer) => (body += c.toString()));
      response.on('end', () => reject(new Error(`${response.statusCode} ${body}`)));
    });
    ws.once('error', reject);
  });
}

/** How a WebSocket closed, and when. */
function closed(ws: WebSocket): Promise<{ code: number; reason: string; at: number }> {
  return new Promise((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
}

// Live rights (issue 14, item 3): every live connection (console socket, agent socket, tunnel, SSH
// session) is re-checked or closed within a second of its right being withdrawn, through the real
// server: a real socket.io client, real WebSockets, a real agent process, OpenSSH ssh and sshd.
describe.each(DATABASES)('live rights on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let sshd: Sshd;
  let agent: AgentProcess;
  let agentId: string;
  let sshDefinitionId: string;
  let genericDefinitionId: string;
  let registrationKey: string;
  const echo = net.createServer((s) => s.pipe(s));
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-live-keys-'));
  const sam = userKey(keys, 'sam');
  const userId = async (email: string) =>
    (
      await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin })
    ).body.users.find((u) => u.email === email)!.id;
  const startRecording = () =>
    server.services.recordings.start({
      type: 'ssh',
      agentId,
      hostname: 'web-01',
      userId: null,
      userEmail: 'someone@example.test',
      definitionId: sshDefinitionId,
      definitionName: 'web-01 shell',
      width: 80,
      height: 24,
    });
  const audited = async (actor: string) =>
    (await server.services.repositories.audit.list({ limit: 50, action: REVOKED_ACTION })).some(
      (entry) => entry.actor === actor,
    );
  /** A user who watches sessions on web-01: list-recording, and the host reached through the group ops. */
  const watcherUser = async (email: string) => {
    await server.createUser(email, 'watcher-password', { permissions: ['list-recording'] });
    await server.call('PUT', '/api/group/ops/users', { token: admin, body: { users: [email] } });
    return server.login(email, 'watcher-password');
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    sshd = await startSshd();
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const echoPort = (echo.address() as net.AddressInfo).port;
    registrationKey = (
      await server.call<{ key: string }>('POST', '/api/apikey', {
        token: admin,
        body: { description: 'live rights', uses: 10 },
      })
    ).body.key;
    agent = startAgent({ server: server.url, key: registrationKey, hostname: 'web-01' });
    agentId = (await eventually(
      async () =>
        (await server.call<{ agents: { id: string; connected: boolean }[] }>('GET', '/api/agent', { token: admin }))
          .body.agents[0],
      (a) => a?.connected === true,
    ))!.id;
    await server.call('POST', `/api/agent/${agentId}/config`, {
      token: admin,
      body: { whitelist: [sshd.port, echoPort] },
    });
    await eventually(
      async () => fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8'),
      (text) => text.includes(String(echoPort)) && text.includes(String(sshd.port)),
    );
    const ssh = await server.call<{ definition: { id: string; public_key: string } }>(
      'POST',
      '/api/tunneldefinition/ssh',
      { token: admin, body: { name: 'web-01 shell', host_id: agentId, port: sshd.port, ssh_login: sshd.login } },
    );
    sshd.authorizeKey(ssh.body.definition.public_key);
    sshDefinitionId = ssh.body.definition.id;
    genericDefinitionId = (
      await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/generic', {
        token: admin,
        body: { name: 'echo', host_id: agentId, port: echoPort },
      })
    ).body.definition.id;
    await server.call('POST', '/api/group', { token: admin, body: { name: 'ops' } });
    await server.call('PUT', '/api/group/ops/agents', { token: admin, body: { agents: [agentId] } });
  }, 180_000);
  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    echo.close();
    await server?.stop();
  });

  it('a watcher who signs out stops receiving the session within a second', async () => {
    const token = await watcherUser('wes@example.test');
    const recording = await startRecording();
    const watcher = await watch(server.url, token, recording.id);
    await produce(recording, watcher);
    const asked = Date.now();
    expect((await server.call('POST', '/api/logout', { token })).status).toBeLessThan(300);
    const gone = await watcher.disconnected;
    expect(gone - asked).toBeLessThan(WITHIN_MS);
    expect((await watcher.revoked).message).toMatch(/signed out|expired/);
    expect(watcher.errors.map((e) => e.recording_id)).toContain(recording.id);
    await server.services.recordings.finish(recording, 'closed');
  });

  it('a watcher whose role is removed stops receiving the session within a second', async () => {
    const token = await watcherUser('rita@example.test');
    const recording = await startRecording();
    const watcher = await watch(server.url, token, recording.id);
    const control = await watch(server.url, admin, recording.id);
    await produce(recording, watcher);
    const roles = await server.call<{ roles: { name: string }[] }>('GET', '/api/user/rita@example.test/role', {
      token: admin,
    });
    const granting = roles.body.roles.find((r) => r.name.startsWith('test-role-'))!.name;
    const asked = Date.now();
    const removed = await server.call('DELETE', `/api/user/rita@example.test/role/${granting}`, { token: admin });
    expect(removed.status).toBeLessThan(300);
    await eventually(
      async () => watcher.errors.length,
      (n) => n > 0,
      WITHIN_MS * 3,
    );
    expect(Date.now() - asked).toBeLessThan(WITHIN_MS);
    expect(watcher.errors[0]).toMatchObject({ recording_id: recording.id, message: /no longer watch/ });
    // The session goes on for those who may watch it, and no longer reaches her.
    const had = watcher.chunks.length;
    await produce(recording, control, 2);
    expect(watcher.chunks.length).toBe(had);
    // The denial is in the audit trail (the policy writes it).
    const denials = await server.services.repositories.audit.list({ limit: 20, action: 'policy.deny' });
    expect(denials.some((d) => d.actor === 'rita@example.test' && d.target === recording.id)).toBe(true);
    watcher.socket.close();
    control.socket.close();
    await server.services.recordings.finish(recording, 'closed');
  });

  it('a watcher removed from the group that gave the host stops receiving the session within a second', async () => {
    const token = await watcherUser('gus@example.test');
    const recording = await startRecording();
    const watcher = await watch(server.url, token, recording.id);
    const asked = Date.now();
    await server.call('DELETE', '/api/group/ops/user/gus@example.test', { token: admin });
    await eventually(
      async () => watcher.errors.length,
      (n) => n > 0,
      WITHIN_MS * 3,
    );
    expect(Date.now() - asked).toBeLessThan(WITHIN_MS);
    watcher.socket.close();
    await server.services.recordings.finish(recording, 'closed');
  });

  it('a deleted user’s live watch ends within a second', async () => {
    const token = await watcherUser('dora@example.test');
    const recording = await startRecording();
    const watcher = await watch(server.url, token, recording.id);
    const asked = Date.now();
    expect((await server.call('DELETE', '/api/user/dora@example.test', { token: admin })).status).toBeLessThan(300);
    const gone = await watcher.disconnected;
    expect(gone - asked).toBeLessThan(WITHIN_MS);
    expect((await watcher.revoked).message).toMatch(/Your Gatehouse account was deleted/);
    await eventually(
      () => audited('dora@example.test'),
      (yes) => yes,
    );
    await server.services.recordings.finish(recording, 'closed');
  });

  it('a watch ends within a second when the token is revoked in the database by another instance', async () => {
    // No call reaches this instance: only the shared database says the token is gone.
    const token = await watcherUser('ivan@example.test');
    const recording = await startRecording();
    const watcher = await watch(server.url, token, recording.id);
    const asked = Date.now();
    await server.services.database.query(
      'DELETE FROM auth_tokens WHERE user_id = (SELECT id FROM users WHERE email = $1)',
      ['ivan@example.test'],
    );
    expect((await watcher.disconnected) - asked).toBeLessThan(WITHIN_MS);
    await server.services.recordings.finish(recording, 'closed');
  });

  it('a tunnel user removed from the definition is disconnected within a second', async () => {
    await server.createUser('tess@example.test', 'tess-password');
    await server.call('PUT', `/api/tunneldefinition/${genericDefinitionId}/users`, {
      token: admin,
      body: { users: [await userId('tess@example.test')] },
    });
    const token = await server.login('tess@example.test', 'tess-password');
    const ws = await openWs(
      `${server.url.replace('http', 'ws')}${TUNNEL_CONNECT_PATH}?definition=${genericDefinitionId}`,
      { 'authentication-token': token },
    );
    const end = closed(ws);
    const back = new Promise<string>((resolve) => ws.once('message', (data: Buffer) => resolve(data.toString())));
    ws.send(Buffer.from('through-the-tunnel'));
    expect(await back).toBe('through-the-tunnel');
    const asked = Date.now();
    await server.call('PUT', `/api/tunneldefinition/${genericDefinitionId}/users`, {
      token: admin,
      body: { users: [] },
    });
    const how = await end;
    expect(how.at - asked).toBeLessThan(WITHIN_MS);
    expect(how).toMatchObject({ code: 4003, reason: 'You are no longer admitted to the tunnel echo.' });
    await eventually(
      () => audited('tess@example.test'),
      (yes) => yes,
    );
  });

  it('a tunnel ends within a second when its user signs out', async () => {
    await server.createUser('olga@example.test', 'olga-password');
    await server.call('PUT', `/api/tunneldefinition/${genericDefinitionId}/users`, {
      token: admin,
      body: { users: [await userId('olga@example.test')] },
    });
    const token = await server.login('olga@example.test', 'olga-password');
    const ws = await openWs(
      `${server.url.replace('http', 'ws')}${TUNNEL_CONNECT_PATH}?definition=${genericDefinitionId}`,
      { 'authentication-token': token },
    );
    const end = closed(ws);
    const asked = Date.now();
    await server.call('POST', '/api/logout', { token });
    const how = await end;
    expect(how.at - asked).toBeLessThan(WITHIN_MS);
    expect(how.code).toBe(4003);
    expect(how.reason).toMatch(/signed out/);
  });

  it('a deleted agent’s socket is closed within a second, whichever instance deleted it', async () => {
    const enrolled = await server.call<{ id: string; credential: string }>('POST', '/api/agent/register', {
      body: { key: registrationKey, hostname: 'gone-01', os: 1, version: '2.0.0' },
    });
    expect(enrolled.status).toBe(201);
    const ws = await openWs(`${server.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
      [AGENT_ID_HEADER]: enrolled.body.id,
      [AGENT_CREDENTIAL_HEADER]: enrolled.body.credential,
    });
    const end = closed(ws);
    const asked = Date.now();
    // As another instance would: the row goes, and this instance's hub is not told.
    await server.services.database.query('DELETE FROM agents WHERE id = $1', [enrolled.body.id]);
    const how = await end;
    expect(how.at - asked).toBeLessThan(WITHIN_MS);
    expect(how.code).toBe(4001);
    expect(how.reason).toMatch(/deleted/);
    await eventually(
      () => audited('agent:gone-01'),
      (yes) => yes,
    );
  });

  /** A user admitted to web-01 by the ssh definition, running a command through the gateway that ticks for 30 s. */
  const tickingSession = async (email: string) => {
    await server.createUser(email, 'password-123');
    const token = await server.login(email, 'password-123');
    await server.call('POST', '/api/user/me/ssh-keys', { token, body: { name: 'laptop', public_key: sam.publicKey } });
    await server.call('PUT', `/api/tunneldefinition/${sshDefinitionId}/users`, {
      token: admin,
      body: { users: [await userId(email)] },
    });
    let out = '';
    const session = ssh([
      '-p',
      String(server.sshPort),
      '-i',
      sam.file,
      `${email}@web-01@127.0.0.1`,
      'for i in $(seq 1 300); do echo tick-$i; sleep 0.1; done',
    ]);
    session.child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    await eventually(
      async () => out,
      (text) => text.includes('tick-3'),
      20_000,
    );
    return session;
  };

  it('an ssh session ends within a second when its user is deleted', async () => {
    const session = await tickingSession('sam@example.test');
    const asked = Date.now();
    expect((await server.call('DELETE', '/api/user/sam@example.test', { token: admin })).status).toBeLessThan(300);
    const ended = await session.done;
    expect(Date.now() - asked).toBeLessThan(WITHIN_MS + 500); // the ssh client's own teardown included
    expect(ended.stderr).toContain('Your Gatehouse account was deleted: this session has been closed.');
    expect(ended.stdout).not.toContain('tick-300');
    await eventually(
      () => audited('sam@example.test'),
      (yes) => yes,
    );
  });

  it('an ssh session ends within a second when its user is removed from the definition', async () => {
    const session = await tickingSession('una@example.test');
    const asked = Date.now();
    await server.call('PUT', `/api/tunneldefinition/${sshDefinitionId}/users`, { token: admin, body: { users: [] } });
    const ended = await session.done;
    expect(Date.now() - asked).toBeLessThan(WITHIN_MS + 500);
    expect(ended.stderr).toContain('Your access to web-01 was withdrawn');
  });

  describe('one-shot tokens are used once, and never by a socket', () => {
    let oneShot: string;
    beforeAll(async () => {
      const saved = await server.call('POST', '/api/security', { token: admin, body: { api_limit_single_use: true } });
      expect(saved.status).toBe(200);
      const authorized = await server.call<{ token: string; kind: string }>('POST', '/api/auth/authorize', {
        token: admin,
        body: { password: ADMIN.password },
      });
      expect(authorized.body.kind).toBe('oneshot');
      oneShot = authorized.body.token;
    });
    afterAll(async () => {
      const fresh = await server.login();
      const authorized = await server.call<{ token: string }>('POST', '/api/auth/authorize', {
        token: fresh,
        body: { password: ADMIN.password },
      });
      await server.call('POST', '/api/security', {
        token: authorized.body.token,
        body: { api_limit_single_use: false },
      });
    });

    it('a one-shot token cannot open a console socket', async () => {
      const socket = connectSocket(server.url, {
        auth: { token: oneShot },
        transports: ['websocket'],
        reconnection: false,
      });
      const error = await once<Error>(socket, 'connect_error');
      expect(error.message).toBe('A one-shot authorization opens no connection: use your session token.');
      socket.close();
    });

    it('a one-shot token cannot open a tunnel', async () => {
      await expect(
        openWs(`${server.url.replace('http', 'ws')}${TUNNEL_CONNECT_PATH}?definition=${genericDefinitionId}`, {
          'authentication-token': oneShot,
        }),
      ).rejects.toThrow(/^401 .*one-shot authorization opens no connection/);
    });

    it('a one-shot token refused by the sockets still answers exactly one HTTP call', async () => {
      expect((await server.call('GET', '/api/user/me', { token: oneShot })).status).toBe(200);
      expect((await server.call('GET', '/api/user/me', { token: oneShot })).status).toBe(401);
    });
  });
});

// Two server instances sharing PostgreSQL and Redis: a right withdrawn through one instance ends
// the live connection held by the other within a second.
describe.runIf(process.env.TEST_DATABASE_URL && process.env.REDIS_URL)(
  'live rights across two instances sharing PostgreSQL and Redis',
  () => {
    const servers: RunningServer[] = [];
    let stopInstances: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      const started = await startInstances(2);
      servers.push(...started.servers);
      stopInstances = started.stop;
    });
    afterAll(async () => {
      await stopInstances();
    });

    const request = async <T>(base: string, method: string, route: string, token?: string, body?: unknown) => {
      const res = await fetch(`${base}${route}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { 'authentication-token': token } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
    };
    const login = async (base: string, email: string, password: string) =>
      (
        await request<{ response: { user: { authentication_token: string } } }>(base, 'POST', '/api/login', undefined, {
          email,
          password,
        })
      ).body.response.user.authentication_token;

    it('a console socket on instance B closes within a second when its user signs out on instance A', async () => {
      const [a, b] = servers as [RunningServer, RunningServer];
      const admin = await login(a.url, ADMIN.email, ADMIN.password);
      await request(a.url, 'POST', '/api/user', admin, { email: 'nina@example.test', password: 'nina-password-1' });
      const token = await login(a.url, 'nina@example.test', 'nina-password-1');
      const socket = connectSocket(b.url, { auth: { token }, transports: ['websocket'], reconnection: false });
      await once(socket, 'connect');
      const gone = new Promise<number>((resolve) => socket.on('disconnect', () => resolve(Date.now())));
      const told = once<{ message: string }>(socket, 'access_revoked');
      const asked = Date.now();
      expect((await request(a.url, 'POST', '/api/logout', token)).status).toBeLessThan(300);
      expect((await gone) - asked).toBeLessThan(WITHIN_MS);
      expect((await told).message).toMatch(/signed out/);
    });

    it('a deleted agent’s socket on instance B is closed within a second when A deletes it', async () => {
      const [a, b] = servers as [RunningServer, RunningServer];
      const admin = await login(a.url, ADMIN.email, ADMIN.password);
      const key = (await request<{ key: string }>(a.url, 'POST', '/api/apikey', admin, { description: 'two' })).body
        .key;
      const enrolled = (
        await request<{ id: string; credential: string }>(a.url, 'POST', '/api/agent/register', undefined, {
          key,
          hostname: 'twin-01',
          os: 1,
          version: '2.0.0',
        })
      ).body;
      const ws = await openWs(`${b.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
        [AGENT_ID_HEADER]: enrolled.id,
        [AGENT_CREDENTIAL_HEADER]: enrolled.credential,
      });
      const end = closed(ws);
      const asked = Date.now();
      expect((await request(a.url, 'DELETE', `/api/agent/${enrolled.id}`, admin)).status).toBeLessThan(300);
      const how = await end;
      expect(how.at - asked).toBeLessThan(WITHIN_MS);
      expect(how.code).toBe(4001);
    });
  },
);
