import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { type SignedManifest, keyFingerprint } from '../recordings/chain.js';
import { verifyRecording } from '../recordings/verify.js';
import { eventually } from '../test/agent-process.js';
import { type FloodRig, sshSession, startFloodRig } from '../test/flood-rig.js';
import { ssh } from '../test/sshd.js';
import { DRAIN_ENDED, drainNotice } from './drain.js';

const DRAIN_SECONDS = 3;

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

describe('graceful shutdown of the built server (SIGTERM drains, then ends sessions recorded)', () => {
  let rig: FloodRig;

  beforeAll(async () => {
    rig = await startFloodRig('drain-01', { GATEHOUSE_DRAIN_SECONDS: String(DRAIN_SECONDS) });
  }, 60_000);

  afterAll(() => rig?.stop());

  it('answers ready, then 503 at once on SIGTERM; live sessions go on, are told, and end recorded; exit 0', async () => {
    expect(await get(rig.url, '/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get(rig.url, '/api/health/ready')).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok', ssh: 'ok', redis: 'not-configured', draining: false },
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
    // The session goes on during the drain.
    session.child.stdin!.write('during-drain\n');
    await eventually(
      async () => session.stdout(),
      (out) => out.includes('during-drain\n'),
      3000,
    );
    expect(session.stderr().split(drainNotice(DRAIN_SECONDS)).length).toBe(2);

    // New sessions are refused: the SSH listener is closed, tunnels and agents answer 503.
    const refused = await ssh(rig.gw('true'), { timeoutMs: 10_000 }).done;
    expect(refused.code).toBe(255);
    expect(refused.stderr).toMatch(/Connection refused/);
    const definition = '00000000-0000-4000-8000-000000000000';
    expect(await upgradeStatus(rig.url, `/api/tunnel/connect?definition=${definition}`)).toBe(503);
    expect(await upgradeStatus(rig.url, '/api/agent/connect')).toBe(503);

    // At the drain's deadline the session is ended with words, and the process exits 0.
    const sessionEnded = await session.exited;
    const endedAt = Date.now();
    expect(endedAt - signalled).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000 - 300);
    expect(session.stderr()).toContain(DRAIN_ENDED);
    expect(sessionEnded).not.toBe(0);
    const exit = await exited;
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeLessThan((DRAIN_SECONDS + 5) * 1000);
    expect(rig.output()).toMatch(/"msg":"drained"/);

    // Its recording was finished by the server (signed manifest, intact), not left for recovery.
    const casts = filesEnding(path.join(rig.dataDir, 'recordings'), '.cast');
    expect(casts).toHaveLength(1);
    const cast = casts[0]!;
    const manifest = JSON.parse(fs.readFileSync(`${cast}.manifest.json`, 'utf8')) as SignedManifest;
    expect(manifest.end_reason).toBe('server-stopped');
    const banner = /Recordings are signed with the key (SHA256:[A-Za-z0-9+/]+)/.exec(rig.output())?.[1];
    expect(keyFingerprint(manifest.public_key)).toBe(banner);
    expect(await verifyRecording(cast, manifest, manifest.public_key)).toEqual({ intact: true, problems: [] });
    expect(fs.readFileSync(cast, 'utf8')).toContain('during-drain');
    const database = await openDatabase({ dataDir: path.join(rig.dataDir, 'pglite') });
    try {
      const rows = await database.query<{ end_reason: string; ended: boolean; signed: boolean }>(
        'SELECT end_reason, ended_on IS NOT NULL AS ended, manifest IS NOT NULL AS signed FROM recordings',
      );
      expect(rows).toEqual([{ end_reason: 'server-stopped', ended: true, signed: true }]);
    } finally {
      await database.close();
    }
  }, 60_000);
});
