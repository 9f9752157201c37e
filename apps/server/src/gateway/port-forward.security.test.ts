import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { type Sshd, startSshd, userKey } from '../test/sshd.js';

type Rec = { id: string; ended_on: string | null; forwards: string[]; end_reason: string | null; type: string };

/** A TCP service on the host's side that answers what it is sent, counting its connections. */
interface Service {
  port: number;
  connections: number;
  /** Sockets still open on the service's side. */
  open: Set<net.Socket>;
  close(): void;
}

async function echoService(host = '127.0.0.1', port = 0): Promise<Service> {
  const open = new Set<net.Socket>();
  const service: Service = { port: 0, connections: 0, open, close: () => server.close() };
  const server = net.createServer((socket) => {
    service.connections += 1;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  service.port = (server.address() as net.AddressInfo).port;
  return service;
}

// ssh -L through the gateway, with the real OpenSSH client, a real agent process and Debian's sshd
// on loopback: each attack is tried, and each success path is shown to work, so a refusal means
// the gateway refused (not that nothing could have worked).
describe.each(DATABASES)('ssh port forwarding through the gateway on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let sshd: Sshd;
  let agent: AgentProcess;
  let definitionId: string;
  let echo: Service;
  let unlisted: Service;
  let elsewhere: Service;
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-fwd-keys-'));
  const vera = userKey(keys, 'vera');

  const recordings = async () =>
    (await server.call<{ recordings: Rec[] }>('GET', '/api/recording', { token: admin })).body.recordings;
  const allowForwarding = async (allow: boolean) => {
    const res = await server.call('PUT', `/api/tunneldefinition/${definitionId}`, {
      token: admin,
      body: { allow_port_forwarding: allow },
    });
    expect(res.status).toBe(200);
  };
  const auditRows = (action: string) => server.services.repositories.audit.list({ limit: 50, action });
  /** The refusal audited for this target (the client hears of the refusal before the row is written). */
  const refusalOf = (target: string) =>
    eventually(
      async () => (await auditRows('gateway.forward.refused')).find((r) => r.target === target),
      (row) => row !== undefined,
    );

  /** Starts ssh -N -L <local>:<destination> as vera; answers once the local port listens. */
  const forwardOnly = async (destination: string) => {
    const local = await freePort();
    const client = sshClient([
      '-N',
      '-o',
      'ExitOnForwardFailure=yes',
      '-L',
      `${local}:${destination}`,
      '-p',
      String(server.sshPort),
      '-i',
      vera.file,
      'vera@example.test@web-01@127.0.0.1',
    ]);
    // Waiting for the listener without connecting to it: a probe would open a forward of its own.
    await eventually(
      async () => listening(local),
      (up) => up,
    );
    return { local, client };
  };
  const stop = async (client: ReturnType<typeof sshClient>) => {
    client.child.kill('SIGTERM');
    return client.done;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    sshd = await startSshd();
    echo = await echoService();
    unlisted = await echoService();
    // Another machine on the host's network, stood in for by another loopback address, on a port
    // the host whitelists (nothing listens on that port at 127.0.0.1).
    elsewhere = await echoService('127.0.0.2');
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'fwd' } })
    ).body.key;
    agent = startAgent({ server: server.url, key, hostname: 'web-01' });
    const agentId = (await eventually(
      async () =>
        (await server.call<{ agents: { id: string; connected: boolean }[] }>('GET', '/api/agent', { token: admin }))
          .body.agents[0],
      (a) => a?.connected === true,
    ))!.id;
    const whitelist = [sshd.port, echo.port, elsewhere.port];
    await server.call('POST', `/api/agent/${agentId}/config`, { token: admin, body: { whitelist } });
    await eventually(
      async () => fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8'),
      (text) => whitelist.every((p) => text.includes(String(p))),
    );
    const def = await server.call<{ definition: { id: string; public_key: string } }>(
      'POST',
      '/api/tunneldefinition/ssh',
      { token: admin, body: { name: 'web-01 shell', host_id: agentId, port: sshd.port, ssh_login: sshd.login } },
    );
    sshd.authorizeKey(def.body.definition.public_key);
    definitionId = def.body.definition.id;
    await server.createUser('vera@example.test', 'password-123');
    const token = await server.login('vera@example.test', 'password-123');
    await server.call('POST', '/api/user/me/ssh-keys', { token, body: { name: 'laptop', public_key: vera.publicKey } });
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    const veraId = users.body.users.find((u) => u.email === 'vera@example.test')!.id;
    await server.call('PUT', `/api/tunneldefinition/${definitionId}/users`, {
      token: admin,
      body: { users: [veraId] },
    });
  }, 180_000);
  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    echo?.close();
    unlisted?.close();
    elsewhere?.close();
    await server?.stop();
  });

  it('port forwarding is refused unless the definition allows it', async () => {
    await allowForwarding(false);
    const before = echo.connections;
    const refused = await forwardOnly(`127.0.0.1:${echo.port}`);
    expect(await exchange(refused.local, 'not-allowed')).toBe('');
    const ended = await stop(refused.client);
    expect(ended.stderr).toMatch(/open failed/);
    expect(echo.connections).toBe(before);
    const denials = await server.services.database.query<{ detail: { why?: string } }>(
      "SELECT detail FROM audit_log WHERE action = 'policy.deny' AND actor = 'vera@example.test'",
    );
    expect(denials.some((d) => /port forwarding/.test(d.detail.why ?? ''))).toBe(true);
    // The same forward once the definition allows it: the refusal above was the gateway's.
    await allowForwarding(true);
    try {
      const allowed = await forwardOnly(`127.0.0.1:${echo.port}`);
      expect(await exchange(allowed.local, 'allowed-now')).toBe('allowed-now');
      await stop(allowed.client);
      expect(echo.connections).toBe(before + 1);
    } finally {
      await allowForwarding(false);
    }
  });

  it('a forward to a port the host does not whitelist is refused', async () => {
    await allowForwarding(true);
    try {
      const attempt = await forwardOnly(`127.0.0.1:${unlisted.port}`);
      expect(await exchange(attempt.local, 'unlisted')).toBe('');
      const ended = await stop(attempt.client);
      expect(ended.stderr).toMatch(/open failed/);
      // The service listens on the host, so only the whitelist kept the bytes from it.
      expect(unlisted.connections).toBe(0);
      const refusal = await refusalOf(`web-01:${unlisted.port}`);
      expect(refusal).toMatchObject({ outcome: 'denied', actor: 'vera@example.test' });
      expect(JSON.stringify(refusal?.detail)).toMatch(/not in the whitelist/);
    } finally {
      await allowForwarding(false);
    }
  });

  it('a forward to another machine than the host is refused, even on a whitelisted port', async () => {
    await allowForwarding(true);
    try {
      const attempt = await forwardOnly(`127.0.0.2:${elsewhere.port}`);
      expect(await exchange(attempt.local, 'lateral')).toBe('');
      const ended = await stop(attempt.client);
      expect(ended.stderr).toMatch(/open failed/);
      expect(elsewhere.connections).toBe(0);
      const refusal = await refusalOf(`web-01:${elsewhere.port}`);
      expect(JSON.stringify(refusal?.detail)).toMatch(/reaches only web-01 itself/);
      // The host's own name is the host: it reaches 127.0.0.1 of the host.
      const own = await forwardOnly(`web-01:${echo.port}`);
      expect(await exchange(own.local, 'by-name')).toBe('by-name');
      await stop(own.client);
    } finally {
      await allowForwarding(false);
    }
  });

  it('ssh -N -L is recorded with its target and listed in Sessions', async () => {
    await allowForwarding(true);
    const before = new Set((await recordings()).map((r) => r.id));
    try {
      const forward = await forwardOnly(`localhost:${echo.port}`);
      expect(await exchange(forward.local, 'recorded-forward')).toBe('recorded-forward');
      expect(await exchange(forward.local, 'second')).toBe('second');
      await stop(forward.client);
    } finally {
      await allowForwarding(false);
    }
    const target = `web-01:${echo.port}`;
    const rec = (await eventually(recordings, (l) => l.some((r) => !before.has(r.id) && r.ended_on !== null))).find(
      (r) => !before.has(r.id),
    )!;
    expect(rec.forwards).toEqual([target]);
    expect(rec.type).toBe('ssh');
    // A connection that only forwarded is a session of kind forward (its first channel's).
    expect((rec as Rec & { kind: string | null }).kind).toBe('forward');
    const kinds = await server.call<{ recordings: Rec[] }>('GET', '/api/recording?kind=forward', { token: admin });
    expect(kinds.body.recordings.map((r) => r.id)).toContain(rec.id);
    // Sessions can be narrowed to those that forwarded, and the detail names the target too.
    const forwarded = await server.call<{ recordings: Rec[] }>('GET', '/api/recording?forwarded=true', {
      token: admin,
    });
    expect(forwarded.body.recordings.map((r) => r.id)).toContain(rec.id);
    expect(forwarded.body.recordings.every((r) => r.forwards.length > 0)).toBe(true);
    const plain = await server.call<{ recordings: Rec[] }>('GET', '/api/recording?forwarded=false', { token: admin });
    expect(plain.body.recordings.map((r) => r.id)).not.toContain(rec.id);
    const detail = await server.call<Rec>('GET', `/api/recording/${rec.id}/data`, { token: admin });
    expect(detail.body.forwards).toEqual([target]);
    // The recording notes each channel's opening and closing with its byte counts, never the bytes.
    const row = await server.services.repositories.recordings.find(rec.id);
    const text = fs
      .readFileSync(row!.storagePath, 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as [number, string, string])[2])
      .join('');
    expect(text).toContain(`forward #1 to ${target} opened`);
    expect(text).toMatch(
      new RegExp(`forward #1 to ${target} closed after [\\d.]+ s: 16 bytes to the host, 16 bytes back`),
    );
    expect(text).toMatch(
      new RegExp(`forward #2 to ${target} closed after [\\d.]+ s: 6 bytes to the host, 6 bytes back`),
    );
    expect(text).not.toContain('recorded-forward');
    await eventually(
      async () => (await auditRows('gateway.forward.open')).filter((r) => r.target === target).length,
      (n) => n >= 2,
    );
  });

  /** ssh -N -L to the echo service, one connection through it that echoed `word`, and the session's recording. */
  const echoThroughForward = async (word: string) => {
    const before = new Set((await recordings()).map((r) => r.id));
    const forward = await forwardOnly(`127.0.0.1:${echo.port}`);
    const socket = net.connect(forward.local, '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    let echoed = '';
    socket.on('data', (c: Buffer) => (echoed += c.toString()));
    socket.write(word);
    await eventually(
      async () => echoed,
      (t) => t === word,
    );
    const rec = (await eventually(recordings, (l) => l.some((r) => !before.has(r.id) && r.ended_on === null))).find(
      (r) => !before.has(r.id),
    )!;
    return { forward, closed, rec };
  };

  it('an open forward closes within a second when its definition stops allowing forwarding', async () => {
    await allowForwarding(true);
    try {
      const { forward, closed, rec } = await echoThroughForward('open');
      const asked = Date.now();
      await allowForwarding(false);
      // Live rights: the change is seen within 500 ms and the connection re-checked at once.
      expect((await closed) - asked).toBeLessThan(1500);
      await forward.client.done;
      const row = await eventually(
        () => server.services.repositories.recordings.find(rec.id),
        (r) => r?.endedOn !== null,
      );
      expect(row?.endReason).toBe('revoked');
    } finally {
      await allowForwarding(false);
    }
  });

  it('terminating a forward-only session closes the forwarded connection within a second', async () => {
    await allowForwarding(true);
    try {
      const { forward, closed, rec } = await echoThroughForward('still-open');
      expect(echo.open.size).toBe(1);
      const asked = Date.now();
      const res = await server.call<{ message: string }>('DELETE', `/api/tunnel/${rec.id}`, { token: admin });
      expect(res.body.message).toBe('Session terminated');
      expect((await closed) - asked).toBeLessThan(1000);
      const ended = await forward.client.done;
      expect(Date.now() - asked).toBeLessThan(2000);
      expect(ended.code).not.toBe(0);
      // The host's side of the forward is closed too.
      await eventually(
        async () => echo.open.size,
        (n) => n === 0,
        1000,
      );
      const row = await eventually(
        () => server.services.repositories.recordings.find(rec.id),
        (r) => r?.endedOn !== null,
      );
      expect(row).toMatchObject({ endReason: 'terminated', terminatedBy: 'admin@example.test' });
    } finally {
      await allowForwarding(false);
    }
  });
});

/**
 * The real OpenSSH client as test/sshd.ts runs it, but at LogLevel=INFO: ssh then prints "open
 * failed" for a channel the gateway refuses, as the user sees it.
 */
function sshClient(args: string[]) {
  const child = spawn(
    'ssh',
    [
      ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'BatchMode=yes'],
      ...['-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=INFO', ...args],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
  return { child, done };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** True when something listens on 127.0.0.1:port (Linux /proc/net/tcp: local address, state 0A). */
function listening(port: number): boolean {
  const hex = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .some((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[1] === hex && fields[3] === '0A';
    });
}

/** Sends text over a fresh connection and answers what came back before the other side closed (or 3 s). */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, 3000);
    socket.on('data', (c: Buffer) => {
      received += c.toString();
      if (received.length >= text.length) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}
