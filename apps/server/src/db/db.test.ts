import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, DATABASES } from '../test/harness.js';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';
import { PGLITE_SHARED_BUFFERS, openDatabase } from './client.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';

describe.each(DATABASES)('migrations on %s', (kind) => {
  it('apply once, record themselves, and do nothing the second time', async () => {
    const { database, drop } = await openTestDatabase(kind);
    try {
      expect(await migrate(database)).toEqual(migrations.map((m) => m.id));
      expect(await migrate(database)).toEqual([]);
      const rows = await database.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
    } finally {
      await drop();
    }
  });
});

describe('embedded PGlite', () => {
  // PostgreSQL's default 128 MB pool grew PGlite's WASM heap to 189 MiB (docs/benchmarks.md).
  it('runs with a small buffer pool, on disk and in memory, and answers queries', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-pglite-'));
    try {
      for (const database of [await openDatabase({ dataDir: dir }), await openDatabase({})]) {
        try {
          const [row] = await database.query<{ shared_buffers: string }>('SHOW shared_buffers');
          expect(row?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
          expect(await database.query<{ n: number }>('SELECT 41 + 1 AS n')).toEqual([{ n: 42 }]);
        } finally {
          await database.close();
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the data folder lock', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second holder while the first lives, naming its process', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'gatehouse.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`process ${process.ppid}`));
  });

  it('takes over a lock left by a process that is gone, and releases it', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'gatehouse.lock'), '2147483646');
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'gatehouse.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'gatehouse.lock'))).toBe(false);
  });
});
