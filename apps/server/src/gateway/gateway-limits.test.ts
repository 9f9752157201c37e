import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BURST_TIMING } from '../lib/burst-report.js';
import { eventually } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { ssh, userKey } from '../test/sshd.js';
import { LOGIN_LIMITS_TIMING } from './login-limits.js';

// Settings are read again every 100 ms here (10 s in production), and refusals summarised every 500 ms.
Object.assign(LOGIN_LIMITS_TIMING, { rereadMs: 100 });
Object.assign(BURST_TIMING, { windowMs: 500 });

/** A raw TCP connection from `from` (a loopback address) that sends nothing; collects what it hears. */
function silent(port: number, from = '127.0.0.1') {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  let heard = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (heard = Buffer.concat([heard, chunk])));
  socket.on('error', () => undefined);
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const started = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, opened, closed, heard: () => heard.toString('latin1') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(DATABASES)('limits on SSH connections still logging in, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-limit-keys-'));
  const vera = userKey(keys, 'vera');
  const strangers = [userKey(keys, 'k1'), userKey(keys, 'k2'), userKey(keys, 'k3')];
  const held: net.Socket[] = [];

  /** Saves limits in Settings and waits until the gateway has read them. */
  const limits = async (body: Record<string, number>) => {
    const saved = await server.call('POST', '/api/settings', { token: admin, body });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await sleep(400);
  };
  /** ssh as vera (key login) to a host she has no definition for: a completed login says so. */
  const veraLogin = (from: string) =>
    ssh(['-p', String(server.sshPort), '-b', from, '-i', vera.file, 'vera@example.test@nohost@127.0.0.1', 'true']).done;
  const LOGGED_IN = 'may not open SSH sessions on nohost';
  const auditCount = async (action: string) =>
    (
      await server.services.database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = '${action}'`,
      )
    )[0]?.n ?? 0;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    await server.createUser('vera@example.test', 'password-123');
    const token = await server.login('vera@example.test', 'password-123');
    await server.call('POST', '/api/user/me/ssh-keys', { token, body: { name: 'laptop', public_key: vera.publicKey } });
  }, 60_000);
  afterEach(() => {
    for (const socket of held.splice(0)) socket.destroy();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('offers the defaults in Settings: 10 s handshake, 60 s login, 6 attempts, 10 per address, 100 in total', async () => {
    const settings = await server.call('GET', '/api/settings', { token: admin });
    expect(settings.body).toMatchObject({
      ssh_handshake_timeout_seconds: 10,
      ssh_login_timeout_seconds: 60,
      ssh_max_auth_attempts: 6,
      ssh_max_unauthenticated_per_address: 10,
      ssh_max_unauthenticated: 100,
    });
    const wrong = await server.call('POST', '/api/settings', { token: admin, body: { ssh_max_unauthenticated: 0 } });
    expect(wrong.status).toBe(400);
  });

  it('closes a connection that never sends its identification at the handshake deadline, saying why', async () => {
    await limits({ ssh_handshake_timeout_seconds: 1, ssh_login_timeout_seconds: 30 });
    const quiet = silent(server.sshPort);
    const ms = await quiet.closed;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
    expect(quiet.heard()).toContain('SSH-2.0-Gatehouse');
    expect(quiet.heard()).toContain('The SSH key exchange did not finish within 1 s of connecting');
  });

  it('closes a connection that sends its identification but stalls the key exchange, with a disconnect naming why', async () => {
    await limits({ ssh_handshake_timeout_seconds: 1, ssh_login_timeout_seconds: 30 });
    const stalled = silent(server.sshPort);
    await stalled.opened;
    stalled.socket.write('SSH-2.0-OpenSSH_9.2\r\n');
    const ms = await stalled.closed;
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
    // Unencrypted: no key exchange finished. Code 3 (key exchange failed), then the words.
    const heard = Buffer.from(stalled.heard(), 'latin1');
    const words = 'The SSH key exchange did not finish within 1 s of connecting';
    const at = heard.indexOf(words);
    expect(at).toBeGreaterThan(0);
    expect(heard.readUInt32BE(at - 8)).toBe(3);
    expect(heard[at - 9]).toBe(1); // SSH_MSG_DISCONNECT
  });

  it('closes a connection that finished the key exchange but never signs in at the login deadline, saying why', async () => {
    await limits({ ssh_handshake_timeout_seconds: 10, ssh_login_timeout_seconds: 2 });
    const client = new ssh2.Client();
    const started = Date.now();
    let handshake = false;
    const ended = new Promise<string>((resolve) => {
      client.on('handshake', () => (handshake = true));
      client.on('error', (error) => resolve(error.message));
      client.on('close', () => resolve('closed without a reason'));
    });
    client.connect({
      host: '127.0.0.1',
      port: server.sshPort,
      username: 'vera@example.test@nohost',
      hostVerifier: () => true,
      // Never says which method to try: the connection waits at the login step.
      authHandler: () => undefined,
    });
    const reason = await ended;
    const ms = Date.now() - started;
    client.end();
    expect(handshake).toBe(true);
    expect(reason).toBe('Not signed in within 2 s of connecting; the connection is closed.');
    expect(ms).toBeGreaterThanOrEqual(1800);
    expect(ms).toBeLessThan(8000);
  });

  it('closes a connection after the allowed failed attempts, and ssh prints why', async () => {
    await limits({ ssh_handshake_timeout_seconds: 10, ssh_login_timeout_seconds: 30, ssh_max_auth_attempts: 2 });
    const args = ['-p', String(server.sshPort), ...strangers.flatMap((k) => ['-i', k.file])];
    const run = await ssh([...args, 'vera@example.test@nohost@127.0.0.1', 'true']).done;
    expect(run.code).toBe(255);
    expect(run.stderr).toContain('Too many authentication failures (2); the connection is closed.');
    // The third key was never tried: two denials audited for this connection.
    const rows = await server.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'gateway.login' AND outcome = 'denied' AND actor = 'vera@example.test'",
    );
    expect(rows[0]?.n).toBe(2);
    await limits({ ssh_max_auth_attempts: 6 });
  });

  it('refuses connections past the cap per address with a reason, while another address still signs in', async () => {
    await limits({
      ssh_handshake_timeout_seconds: 30,
      ssh_max_unauthenticated_per_address: 3,
      ssh_max_unauthenticated: 50,
    });
    const hogs = [1, 2, 3].map(() => silent(server.sshPort, '127.0.0.1'));
    held.push(...hogs.map((h) => h.socket));
    await Promise.all(hogs.map((h) => h.opened));
    await sleep(200);
    const refused = await veraLogin('127.0.0.1');
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain('Too many connections from your address are still logging in');
    // Another address is not held back by the first one's connections.
    expect((await veraLogin('127.0.0.2')).stderr).toContain(LOGGED_IN);
    // Once the first address's connections go, it signs in again.
    for (const h of hogs) h.socket.destroy();
    await Promise.all(hogs.map((h) => h.closed));
    await sleep(200);
    expect((await veraLogin('127.0.0.1')).stderr).toContain(LOGGED_IN);
  });

  it('refuses connections past the cap in total, from any address, with a reason', async () => {
    await limits({
      ssh_handshake_timeout_seconds: 30,
      ssh_max_unauthenticated_per_address: 0,
      ssh_max_unauthenticated: 4,
    });
    const hogs = [1, 2, 3, 4].map(() => silent(server.sshPort, '127.0.0.3'));
    held.push(...hogs.map((h) => h.socket));
    await Promise.all(hogs.map((h) => h.opened));
    await sleep(200);
    const refused = await veraLogin('127.0.0.2');
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain('Too many connections are logging in to this gateway right now');
    for (const h of hogs) h.socket.destroy();
    await sleep(300);
    expect((await veraLogin('127.0.0.2')).stderr).toContain(LOGGED_IN);
  });

  it('2,000 silent connections from one address leave the API and another address’s login working, audited once per burst', async () => {
    await limits({
      ssh_handshake_timeout_seconds: 30,
      ssh_max_unauthenticated_per_address: 10,
      ssh_max_unauthenticated: 100,
    });
    const before = await auditCount('gateway.connections.refused');
    // In waves of 250, so the kernel's accept queue (511) never overflows: a connection dropped there
    // would stay open on the silent client's side for ever, whatever the server does.
    let closed = 0;
    for (let wave = 0; wave < 8; wave += 1) {
      const flood = Array.from({ length: 250 }, () => silent(server.sshPort, '127.0.0.4'));
      held.push(...flood.map((f) => f.socket));
      for (const f of flood) void f.closed.then(() => (closed += 1));
      await Promise.all(flood.map((f) => Promise.race([f.opened, f.closed])));
    }
    // All but the cap are refused and closed.
    await eventually(
      async () => closed,
      (n) => n >= 1990,
      30_000,
    );
    const started = Date.now();
    const health = await server.call('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await veraLogin('127.0.0.2')).stderr).toContain(LOGGED_IN);
    expect(closed).toBe(1990);
    // A few summaries (one per window), not one entry per refused connection.
    await eventually(
      () => auditCount('gateway.connections.refused'),
      (n) => n > before,
    );
    const summaries = await server.services.database.query<{ detail: { events: number; addresses: object } }>(
      "SELECT detail FROM audit_log WHERE action = 'gateway.connections.refused' ORDER BY id",
    );
    const fresh = summaries.slice(before);
    expect(fresh.length).toBeLessThan(20);
    await eventually(
      async () =>
        (
          await server.services.database.query<{ detail: { events: number } }>(
            "SELECT detail FROM audit_log WHERE action = 'gateway.connections.refused' ORDER BY id",
          )
        )
          .slice(before)
          .reduce((sum, row) => sum + row.detail.events, 0),
      (events) => events >= 1990,
    );
  });
});
