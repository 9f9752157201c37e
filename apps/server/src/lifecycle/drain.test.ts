import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { type SignedManifest, keyFingerprint } from '../recordings/chain.js';
import { verifyRecording } from '../recordings/verify.js';
import { eventually } from '../test/agent-process.js';
import { type FloodRig, sshSession, startFloodRig } from '../test/flood-rig.js';
import { ssh } from '../test/sshd.js';
import { DRAIN_ENDED, drainNotice } from './drain.js';

const DRAIN_SECONDS = 3;
const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

/** A WebSocket upgrade to `pathName`: the HTTP status it is answered with (101 when taken). */
function upgradeStatus(url: string, pathName: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${pathName}`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('drain-test-key-0').toString('base64'),
      },
    });
    request.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    request.on('error', reject);
    request.end();
  });
}

async function get(url: string, pathName: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${pathName}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Every file under `dir` ending with `suffix`. */
function filesEnding(dir: string, suffix: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => name.endsWith(suffix))
    .map((name) => path.join(dir, name));
}

/** The recordings on disk: each manifest (when written) and whether the recording verifies intact. */
async function finishedRecordings(dataDir: string) {
  const casts = filesEnding(path.join(dataDir, 'recordings'), '.cast');
  return Promise.all(
    casts.map(async (cast) => {
      const manifestFile = `${cast}.manifest.json`;
      if (!fs.existsSync(manifestFile)) return { cast, manifest: undefined, intact: false };
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as SignedManifest;
      const { intact } = await verifyRecording(cast, manifest, manifest.public_key);
      return { cast, manifest, intact };
    }),
  );
}

/** The recordings' rows as the stopped server left them in its embedded database. */
async function recordingRows(dataDir: string) {
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  try {
    return await database.query<{ type: string; end_reason: string | null; ended: boolean; signed: boolean }>(
      'SELECT type, end_reason, ended_on IS NOT NULL AS ended, manifest IS NOT NULL AS signed FROM recordings ORDER BY started_on',
    );
  } finally {
    await database.close();
  }
}

describe('graceful shutdown of the built server (SIGTERM drains, then ends sessions recorded)', () => {
  let rig: FloodRig;
  let tunnelDefinition: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    rig = await startFloodRig('drain-01', { GATEHOUSE_DRAIN_SECONDS: String(DRAIN_SECONDS) });
    // A generic tunnel to the host's sshd (whitelisted), for the administrator.
    tunnelDefinition = (
      await rig.api<{ definition: { id: string } }>('POST', '/api/tunneldefinition/generic', {
        name: 'sshd',
        host_id: rig.agentId,
        port: rig.sshdPort,
      })
    ).definition.id;
    const users = await rig.api<{ users: { id: string }[] }>('GET', '/api/user');
    await rig.api('PUT', `/api/tunneldefinition/${tunnelDefinition}/users`, { users: [users.users[0]!.id] });
  }, 60_000);

  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rig?.stop();
  });

  it('answers ready, then 503 at once on SIGTERM; live sessions go on, are told, and end recorded; exit 0', async () => {
    expect(await get(rig.url, '/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get(rig.url, '/api/health/ready')).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: {
          database: 'ok',
          migrations: 'ok',
          ssh: 'ok',
          redis: process.env.REDIS_URL ? 'ok' : 'not-configured',
          draining: false,
        },
      },
    });

    // A live OpenSSH session through the gateway, echoing what is typed.
    const session = sshSession(rig.gw('cat'), true);
    session.child.stdin!.write('before-drain\n');
    await eventually(
      async () => session.stdout(),
      (out) => out.includes('before-drain\n'),
      20_000,
    );
    // And a live tunnel to the host's sshd (which speaks first).
    const tunnel = new WebSocket(`${rig.url.replace('http', 'ws')}/api/tunnel/connect?definition=${tunnelDefinition}`, {
      headers: { 'authentication-token': rig.token },
    });
    let fromHost = '';
    tunnel.on('message', (data: Buffer) => (fromHost += data.toString('latin1')));
    const tunnelClosed = new Promise<{ code: number; at: number }>((resolve) =>
      tunnel.once('close', (code) => resolve({ code, at: Date.now() })),
    );
    await eventually(
      async () => fromHost,
      (text) => text.startsWith('SSH-2.0-'),
      20_000,
    );
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      rig.server.once('exit', (code) => resolve({ code, at: Date.now() })),
    );

    const signalled = Date.now();
    rig.server.kill('SIGTERM');
    // Not ready from the signal on: a balancer stops sending new sessions here.
    const notReady = await eventually(
      () => get(rig.url, '/api/health/ready'),
      (r) => r.status === 503,
      2000,
    );
    expect(Date.now() - signalled).toBeLessThan(1500);
    expect(notReady.body).toMatchObject({
      status: 'not-ready',
      checks: { draining: true },
      failed: expect.arrayContaining(['draining']) as unknown,
    });
    expect(JSON.stringify(notReady.body)).not.toMatch(/127\.0\.0\.1|password|token/i);
    // Still alive while draining: a liveness probe must not restart it.
    expect(await get(rig.url, '/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });

    // The connected user is told once, on their terminal, how long they have.
    await eventually(
      async () => session.stderr(),
      (err) => err.includes(drainNotice(DRAIN_SECONDS)),
      3000,
    );
    // The session goes on during the drain, and so does the tunnel.
    session.child.stdin!.write('during-drain\n');
    await eventually(
      async () => session.stdout(),
      (out) => out.includes('during-drain\n'),
      3000,
    );
    expect(session.stderr().split(drainNotice(DRAIN_SECONDS)).length).toBe(2);
    tunnel.send(Buffer.from('SSH-2.0-drain-test\r\n'));
    await eventually(
      async () => fromHost.length,
      (n) => n > 100,
      3000,
    ); // sshd's key exchange offer
    expect(tunnel.readyState).toBe(WebSocket.OPEN);

    // New sessions are refused: the SSH listener is closed, tunnels and agents answer 503.
    const refused = await ssh(rig.gw('true'), { timeoutMs: 10_000 }).done;
    expect(refused.code).toBe(255);
    expect(refused.stderr).toMatch(/Connection refused/);
    expect(await upgradeStatus(rig.url, `/api/tunnel/connect?definition=${tunnelDefinition}`)).toBe(503);
    expect(await upgradeStatus(rig.url, '/api/agent/connect')).toBe(503);

    // At the drain's deadline the session and the tunnel are ended, and the process exits 0.
    const sessionEnded = await session.exited;
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000 - 300);
    expect(session.stderr()).toContain(DRAIN_ENDED);
    expect(sessionEnded).not.toBe(0);
    const tunnelEnd = await tunnelClosed;
    expect(tunnelEnd.code).toBe(1001);
    expect(tunnelEnd.at - signalled).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000 - 300);
    const exit = await exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan((DRAIN_SECONDS + 5) * 1000);
    expect(rig.output()).toMatch(/"msg":"drained"/);

    // Both recordings were finished by the server (signed manifests, intact), not left for recovery.
    const recordings = await finishedRecordings(rig.dataDir);
    expect(recordings).toHaveLength(2);
    const banner = /Recordings are signed with the key (SHA256:[A-Za-z0-9+/]+)/.exec(rig.output())?.[1];
    for (const { manifest, intact } of recordings) {
      expect(intact).toBe(true);
      expect(manifest?.end_reason).toBe('server-stopped');
      expect(keyFingerprint(manifest!.public_key)).toBe(banner);
    }
    expect(recordings.some(({ cast }) => fs.readFileSync(cast, 'utf8').includes('during-drain'))).toBe(true);
    expect(await recordingRows(rig.dataDir)).toEqual([
      { type: 'ssh', end_reason: 'server-stopped', ended: true, signed: true },
      { type: 'generic', end_reason: 'server-stopped', ended: true, signed: true },
    ]);
  }, 60_000);

  it('restarts on the same data with the agent back; a second signal ends the drain at once, still recorded', async () => {
    // The same data folder and HTTP port (the agent dials it again), a drain of 30 s this time.
    const server = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        GATEHOUSE_DATA_DIR: rig.dataDir,
        PORT: new URL(rig.url).port,
        GATEHOUSE_SSH_PORT: '0',
        LOG_LEVEL: 'info',
        GATEHOUSE_DRAIN_SECONDS: '30',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(server);
    let out = '';
    server.stdout.on('data', (c: Buffer) => (out += c.toString()));
    server.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    const sshPort = await eventually(
      async () => /ssh -p (\d+)/.exec(out)?.[1],
      (found) => found !== undefined || server.exitCode !== null,
      30_000,
    );
    expect(sshPort, out).toBeDefined();
    await eventually(
      () => rig.api<{ agents: { connected: boolean }[] }>('GET', '/api/agent'),
      (r) => r.agents[0]?.connected === true,
      20_000,
    );
    const session = sshSession(['-p', sshPort!, '-i', rig.keyFile, `${rig.login}@127.0.0.1`, 'cat'], true);
    session.child.stdin!.write('second-run\n');
    await eventually(
      async () => session.stdout(),
      (text) => text.includes('second-run\n'),
      20_000,
    );

    server.kill('SIGTERM');
    await eventually(
      async () => session.stderr(),
      (err) => err.includes(drainNotice(30)),
      5000,
    );
    const hurried = Date.now();
    server.kill('SIGINT');
    await session.exited;
    expect(Date.now() - hurried).toBeLessThan(5000);
    expect(session.stderr()).toContain(DRAIN_ENDED);
    expect(await exited).toBe(0);
    expect(Date.now() - hurried).toBeLessThan(10_000);
    expect(out).toMatch(/second signal/);
    // Nothing of the first run needed recovery; the third recording is finished too.
    expect(out).not.toMatch(/recover/i);
    const recordings = await finishedRecordings(rig.dataDir);
    expect(recordings).toHaveLength(3);
    expect(recordings.every((r) => r.intact && r.manifest?.end_reason === 'server-stopped')).toBe(true);
  }, 60_000);
});
