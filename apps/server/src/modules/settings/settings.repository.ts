import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { settings } from '../../db/schema.js';

/** Settings documents stored by key. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  /** The stored document for a key, if any. */
  async get(key: string): Promise<unknown> {
    const rows = await this.db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
    return rows[0]?.value;
  }

  /** Stores the document only when the key has none yet (first writer wins). */
  async putIfAbsent(key: string, value: unknown): Promise<void> {
    await this.db.insert(settings).values({ key, value }).onConflictDoNothing();
  }

  /** Stores the document for a key, replacing any earlier one. */
  async put(key: string, value: unknown): Promise<void> {
    await this.db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  }
}
