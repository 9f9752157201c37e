import type { Database } from './client.js';
import { migrations } from './migrations/index.js';

// Any constant: every instance takes the same advisory lock, so one migrates at a time.
const MIGRATION_LOCK_ID = 727_001;

/** Applies the migrations not yet applied, each in its own transaction. Returns their ids. */
export async function migrate(database: Database): Promise<string[]> {
  await database.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    // Lock, check and apply in one transaction: two instances starting together never apply the
    // same migration twice, and a failed migration leaves nothing half-written.
    const ran = await database.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id]);
      if (done.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      return true;
    });
    if (ran) applied.push(migration.id);
  }
  return applied;
}
