import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
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
}

/** Opens PostgreSQL when a URL is given, else embedded PGlite. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.searchPath);
  return openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const client = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    transaction: (fn) =>
      client.transaction((tx) =>
        fn({
          query: async <T>(statement: string, params: unknown[] = []) => (await tx.query<T>(statement, params)).rows,
          exec: async (statements: string) => {
            await tx.exec(statements);
          },
        }),
      ),
    async query<T>(statement: string, params: unknown[] = []) {
      return (await client.query<T>(statement, params)).rows;
    },
    async exec(statements) {
      await client.exec(statements);
    },
    async close() {
      await client.close();
    },
  };
}

async function openPostgres(url: string, searchPath: string | undefined): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
  });
  // Fail fast with a clear message when the database is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async transaction(fn) {
      const conn = await pool.connect();
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
        await conn.query('ROLLBACK');
        throw error;
      } finally {
        conn.release();
      }
    },
    async query<T>(statement: string, params: unknown[] = []) {
      return (await pool.query(statement, params)).rows as T[];
    },
    async exec(statements) {
      await pool.query(statements);
    },
    async close() {
      await pool.end();
    },
  };
}
