import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, DATABASES } from '../test/harness.js';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';
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
