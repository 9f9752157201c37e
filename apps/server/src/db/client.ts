import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { DatabaseHealth, isDatabaseUnavailable } from './health.js';
import * as schema from './schema.js';

/** The query layer every repository uses, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw SQL access, for migrations and the few statements the query builder cannot say. */
export interface RawSql {
  /** Runs one statement with parameters and returns its rows. */
  query<T>(statement: string, params?: unknown[]): Promise<T[]>;
  /** Runs several statements without parameters. */
  exec(statements: string): Promise<void>;
}

/** An open database: the query layer, raw SQL, and how to close it. */
export interface Database extends RawSql {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Whether the database answers, as this process last saw it (PostgreSQL can go away; PGlite cannot). */
  health: DatabaseHealth;
  /** Runs the function in one transaction on one connection. */
  transaction<T>(fn: (tx: RawSql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Options for opening a database. */
export interface OpenOptions {
  /** postgres:// URL; when absent, embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite data folder; absent means in memory (tests). */
  dataDir?: string | undefined;
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  searchPath?: string;
  /** How long to keep trying to reach PostgreSQL at start before giving up (ms); 0 fails at once. */
  waitMs?: number;
  /** Told of each failed attempt at start (how the wait is explained on the console). */
  onWait?: (attempt: number, error: unknown) => void;
}

/** Opens PostgreSQL when a URL is given, else embedded PGlite. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) return openPostgres(options);
  return openPglite(options.dataDir);
}

/** PGlite's buffer pool (PostgreSQL's shared_buffers): see openPglite. */
export const PGLITE_SHARED_BUFFERS = '16MB';

/** One turn of the event loop (timers and I/O run before it resolves). */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function openPglite(dataDir: string | undefined): Promise<Database> {
  // pg_trgm (a contrib extension PGlite ships) serves the trigram indexes of substring search.
  const extensions = { pg_trgm };
  // PostgreSQL's default shared_buffers (128 MB) grows PGlite's WASM heap to 189 MiB and the idle
  // server by about 136 MiB (docs/benchmarks.md, "One instance's scale"). PGlite reads its files
  // through the operating system's cache, so a large buffer pool of its own mostly holds pages twice.
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  const client = dataDir
    ? await PGlite.create(dataDir, { extensions, startParams })
    : await PGlite.create({ extensions, startParams });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    health: new DatabaseHealth(() => client.query('SELECT 1')),
    transaction: (fn) =>
      client.transaction((tx) =>
        fn({
          query: async <T>(statement: string, params: unknown[] = []) => (await tx.query<T>(statement, params)).rows,
          exec: async (statements: string) => {
            await tx.exec(statements);
          },
        }),
      ),
    // PGlite runs on this thread and its statements resolve without waiting for I/O: a loop of
    // awaited statements would never let a timer, a socket or a request run. A turn of the event
    // loop after each one keeps the server answering (recording-text.repository.ts paces its batches too).
    async query<T>(statement: string, params: unknown[] = []) {
      const rows = (await client.query<T>(statement, params)).rows;
      await yieldTurn();
      return rows;
    },
    async exec(statements) {
      await client.exec(statements);
      await yieldTurn();
    },
    async close() {
      await client.close();
    },
  };
}

/** pg.Pool settings: a connection attempt gives up after 5 s (the caller answers 503), TCP keep-alive finds dead peers. */
export const PG_POOL_OPTIONS = { max: 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000, keepAlive: true };

async function openPostgres(options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    ...PG_POOL_OPTIONS,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  const health = new DatabaseHealth(() => pool.query('SELECT 1'));
  // A connection the server dropped (restart, failover, pg_terminate_backend, a proxy's idle
  // timeout) emits 'error' on its client, idle or checked out: without a listener Node ends the
  // process. Here it marks the database down; the pool drops that client and opens new ones.
  pool.on('error', (error) => health.failed(error));
  pool.on('connect', (client) => client.on('error', (error) => health.failed(error)));
  await waitForPostgres(pool, options);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  /** Runs one call; a failure saying the database is away marks it down, a success marks it up. */
  const observed = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      const result = await work();
      health.succeeded();
      return result;
    } catch (error) {
      health.failed(error);
      throw error;
    }
  };
  return {
    db,
    kind: 'postgres',
    health,
    transaction: (fn) =>
      observed(async () => {
        const conn = await pool.connect();
        let broken: unknown;
        try {
          await conn.query('BEGIN');
          const result = await fn({
            query: async <T>(statement: string, params: unknown[] = []) =>
              (await conn.query(statement, params)).rows as T[],
            exec: async (statements: string) => {
              await conn.query(statements);
            },
          });
          await conn.query('COMMIT');
          return result;
        } catch (error) {
          // On a dropped connection ROLLBACK fails too; the first error is the one to answer.
          await conn.query('ROLLBACK').catch((rollbackError: unknown) => {
            broken = rollbackError;
          });
          throw error;
        } finally {
          // A connection that failed is not given back to the pool for reuse.
          conn.release(broken instanceof Error ? broken : undefined);
        }
      }),
    query: <T>(statement: string, params: unknown[] = []) =>
      observed(async () => (await pool.query(statement, params)).rows as T[]),
    exec: (statements) =>
      observed(async () => {
        await pool.query(statements);
      }),
    async close() {
      health.close();
      await pool.end();
    },
  };
}

/**
 * Reaches PostgreSQL once before serving: retried with a growing delay for up to options.waitMs
 * while it is away (starting beside it, restarting), failing at once on any other error (a wrong
 * password, a missing database) with that error.
 */
async function waitForPostgres(pool: pg.Pool, options: OpenOptions): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const probe = await pool.connect();
      probe.release();
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() >= deadline) {
        await pool.end().catch(() => undefined);
        throw error;
      }
      options.onWait?.(attempt, error);
      const delay = Math.min(500 * 2 ** (attempt - 1), 5000, Math.max(0, deadline - Date.now()));
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
