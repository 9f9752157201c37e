import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_DATABASE_AWAY } from '../gateway/ssh-gateway.js';
import { DATABASE_AWAY_MESSAGE } from '../http/errors.js';
import { type RunningServer, startServer } from '../server.js';
import { ADMIN, testConfig } from '../test/harness.js';
import { type Database, openDatabase } from './client.js';

/**
 * The database as a dependency that fails (issue 15): real PostgreSQL (TEST_DATABASE_URL), reached
 * through a TCP relay this test owns, so that it can take the database away and bring it back
 * without stopping the machine's shared server (the fault suite, `npm run faults`, restarts a real
 * cluster of its own). Connections are also ended from inside PostgreSQL with pg_terminate_backend.
 */
const url = process.env.TEST_DATABASE_URL;

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
class Relay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** The database goes away: open connections are reset and new ones refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const s of this.sockets) s.resetAndDestroy();
    await closed;
  }
}

/** Runs a program to its end (killed after 20 s); answers its exit status and what it wrote to stderr. */
function run(command: string, args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

async function waitFor<T>(what: string | (() => string), probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(url)('the database as a dependency that fails (PostgreSQL)', () => {
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  const application = `gh-outage-${randomBytes(4).toString('hex')}`;
  const target = new URL(url ?? 'postgres://127.0.0.1');
  const relay = new Relay({ host: target.hostname, port: Number(target.port || 5432) });
  let database: Database;
  let server: RunningServer;
  let token: string;
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-outage-key-'));
  const key = path.join(keyDir, 'id_ed25519');

  const admin = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  const audit = () => server.services.repositories.audit;
  const call = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { 'authentication-token': token } });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as never };
  };

  beforeAll(async () => {
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    await admin(`CREATE SCHEMA ${schema}`);
    await relay.start();
    const relayed = new URL(url ?? '');
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    relayed.searchParams.set('application_name', application);
    database = await openDatabase({ url: relayed.toString(), searchPath: schema });
    server = await startServer(testConfig(), { database });
    const res = await fetch(`${server.url}/api/login?include_auth_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    token = ((await res.json()) as { response: { user: { authentication_token: string } } }).response.user
      .authentication_token;
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await database?.close();
    await relay.cut();
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it('never ends the server when PostgreSQL terminates its connections, and serves again at once', async () => {
    expect((await call('/api/user')).status).toBe(200);
    const ended = await admin<{ ok: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1',
      [application],
    );
    expect(ended.length).toBeGreaterThan(0);
    // An unhandled 'error' event here would fail the run (vitest reports it); the API answers again.
    const statuses: number[] = [];
    await waitFor(
      'the API to answer again',
      async () => {
        const { status } = await call('/api/user');
        statuses.push(status);
        return status === 200 ? true : undefined;
      },
      10_000,
    );
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
  });

  it('answers 503 with what to do while the database is away, holds audit entries, and recovers within seconds of its return', async () => {
    await relay.cut();
    const away = await waitFor(
      'a 503',
      async () => {
        const answer = await call('/api/user');
        return answer.status === 503 ? answer : undefined;
      },
      15_000,
    );
    expect(away.body).toMatchObject({ statusCode: 503, message: DATABASE_AWAY_MESSAGE });
    expect(away.retryAfter).toBe('5');
    expect(database.health.available).toBe(false);
    // An SSH login that cannot be checked is told why, in words ssh prints, not "Permission denied".
    // (Not spawnSync: the server runs in this process and must answer meanwhile.)
    const ssh = await run('ssh', [
      '-p',
      String(server.sshPort),
      '-i',
      key,
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'IdentitiesOnly=yes',
      '-l',
      `${ADMIN.email}@web-01`,
      '127.0.0.1',
      'true',
    ]);
    expect(ssh.status).toBe(255);
    expect(ssh.stderr).toContain(GATEWAY_DATABASE_AWAY);
    // What happens meanwhile is still audited, once the database is back, with the time it happened.
    const heldAt = Date.now();
    await server.services.repositories.audit.append({ action: 'outage.test', outcome: 'success', target: schema });
    expect(server.services.repositories.audit.pending).toBe(1);

    await new Promise((r) => setTimeout(r, 1000));
    await relay.start();
    const back = Date.now();
    await waitFor(
      'the API to answer again',
      async () => ((await call('/api/user')).status === 200 ? true : undefined),
      10_000,
    );
    expect(Date.now() - back).toBeLessThan(10_000);
    await waitFor('the health to say so', async () => (database.health.available ? true : undefined), 10_000);
    await waitFor(
      () => `the held audit entry (last failure: ${audit().lastFlushFailure ?? 'none'})`,
      async () => (audit().pending === 0 ? true : undefined),
      10_000,
    );
    const rows = await admin<{ at: Date }>(`SELECT at FROM ${schema}.audit_log WHERE action = 'outage.test'`);
    expect(rows).toHaveLength(1);
    expect(Math.abs((rows[0]?.at.getTime() ?? 0) - heldAt)).toBeLessThan(2000);
  }, 60_000);

  it('writes held audit entries even when the first write after the return fails for another reason', async () => {
    await relay.cut();
    await waitFor(
      'the outage to be seen',
      async () => ((await call('/api/user')).status === 503 ? true : undefined),
      15_000,
    );
    await audit().append({ action: 'outage.retried', outcome: 'success', target: schema });
    expect(audit().pending).toBe(1);
    // The write on return fails with an error that does not say the database is away (the table is
    // not there), so the health stays up and nothing else would bring the entry back.
    await admin(`ALTER TABLE ${schema}.audit_log RENAME TO audit_log_away`);
    try {
      await relay.start();
      await waitFor(
        'the health to say the database is back',
        async () => {
          await call('/api/user');
          return database.health.available ? true : undefined;
        },
        10_000,
      );
      await waitFor('the failed write', async () => (audit().lastFlushFailure ? true : undefined), 10_000);
      expect(audit().pending).toBe(1);
    } finally {
      await admin(`ALTER TABLE ${schema}.audit_log_away RENAME TO audit_log`);
    }
    await waitFor(
      () => `the retried audit entry (last failure: ${audit().lastFlushFailure ?? 'none'})`,
      async () => (audit().pending === 0 ? true : undefined),
      10_000,
    );
    const rows = await admin(`SELECT id FROM ${schema}.audit_log WHERE action = 'outage.retried'`);
    expect(rows).toHaveLength(1);
  }, 60_000);
});
