import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { type RunningServer, type StartOptions, startServer } from '../server.js';

/** The databases every server test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DATABASES: readonly ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

export const ADMIN = { email: 'admin@example.test', password: 'first-admin-password' } as const;

/** A test configuration: an ephemeral port on loopback, a known first admin, no console. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'gh-test-')),
    databaseUrl: undefined,
    databaseWaitSeconds: 0,
    databaseOutageGraceSeconds: 300,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    logLevel: (process.env.TEST_LOG_LEVEL ?? 'silent') as Config['logLevel'],
    loginRateLimitPerMinute: 10_000,
    buildTag: 'test',
    webDir: undefined,
    trustProxy: false,
    secretKey: randomBytes(32).toString('hex'),
    publicUrl: 'http://console.example.test',
    redisUrl: undefined,
    sshPort: 0,
    sshHost: '127.0.0.1',
    tlsPort: undefined,
    devLicenses: true,
    ...overrides,
  };
}

/** Opens an isolated database: in-memory PGlite, or a fresh schema on the PostgreSQL under test. */
export async function openTestDatabase(
  kind: 'pglite' | 'postgres',
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openDatabase({});
    return { database, drop: () => database.close() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const database = await openDatabase({ url, searchPath: schema });
  return {
    database,
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

/** An answer as a client sees it. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A started server with a small HTTP client bound to it. */
export interface TestServer extends RunningServer {
  kind: 'pglite' | 'postgres';
  /** The data folder (outbox, secret key) of this server. */
  dataDir: string;
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { token?: string | undefined; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<Answer<T>>;
  /** Signs in and returns the token; fails the test when sign-in fails. */
  login(email?: string, password?: string): Promise<string>;
  /** Creates a user holding the given roles, with a role holding exactly `permissions` when given. */
  createUser(email: string, password: string, options?: { roles?: string[]; permissions?: string[] }): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a real server over real HTTP on the given database. */
export async function startTestServer(
  kind: 'pglite' | 'postgres',
  overrides: Partial<Config> = {},
  /** More start options, such as logOut to read the server's log lines. */
  start: Omit<StartOptions, 'database'> = {},
): Promise<TestServer> {
  const { database, drop } = await openTestDatabase(kind);
  const config = testConfig(overrides);
  const server = await startServer(config, { ...start, database });
  const call: TestServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authentication-token'] = options.token;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${server.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, headers: res.headers, body: parsed as never };
  };
  let roleCounter = 0;
  return {
    ...server,
    kind,
    dataDir: config.dataDir,
    call,
    async login(email = ADMIN.email, password = ADMIN.password) {
      const res = await call<{ response: { user: { authentication_token: string } } }>(
        'POST',
        '/api/login?include_auth_token',
        {
          body: { email, password },
        },
      );
      if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.response.user.authentication_token;
    },
    async createUser(email, password, options = {}) {
      const roles = [...(options.roles ?? ['user'])];
      if (options.permissions) {
        roleCounter += 1;
        const role = `test-role-${roleCounter}`;
        await server.services.repositories.roles.ensure(role, options.permissions, false);
        roles.push(role);
      }
      await server.services.usersService.create({ email, name: null, password }, roles);
    },
    async stop() {
      await server.close();
      await drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Several server instances sharing one fresh PostgreSQL schema (TEST_DATABASE_URL), Redis
 * (REDIS_URL) and one secret key, as a deployment runs them. `stop` closes them and drops the schema.
 */
export async function startInstances(
  count: number,
  options: { redisUrl?: string } = {},
): Promise<{ servers: RunningServer[]; stop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL ?? '';
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const secretKey = randomBytes(32).toString('hex');
  const servers: RunningServer[] = [];
  for (let i = 0; i < count; i += 1) {
    const database = await openDatabase({ url, searchPath: schema });
    servers.push(
      await startServer(testConfig({ redisUrl: options.redisUrl ?? process.env.REDIS_URL, secretKey }), { database }),
    );
  }
  const stop = async () => {
    for (const s of servers) {
      await s.close();
      await s.services.database.close();
    }
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
    await cleanup.end();
  };
  return { servers, stop };
}
