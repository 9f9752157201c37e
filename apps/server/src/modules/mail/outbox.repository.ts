import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

/** A kept message as stored: the body stays sealed here. */
export interface OutboxRow {
  id: string;
  createdAt: Date;
  sender: string;
  recipient: string;
  subject: string;
  bodySealed: string;
}

/** The mail outbox in SQL (every instance shares it). */
export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<OutboxRow, 'id' | 'createdAt'>): Promise<string> {
    const [inserted] = await this.db.insert(mailOutbox).values(row).returning({ id: mailOutbox.id });
    if (!inserted) throw new Error('the outbox did not keep the message');
    return inserted.id;
  }

  /** One page, newest first, and how many there are. */
  async page(offset: number, limit: number): Promise<{ total: number; rows: Omit<OutboxRow, 'bodySealed'>[] }> {
    const rows = await this.db
      .select({
        id: mailOutbox.id,
        createdAt: mailOutbox.createdAt,
        sender: mailOutbox.sender,
        recipient: mailOutbox.recipient,
        subject: mailOutbox.subject,
      })
      .from(mailOutbox)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .offset(offset)
      .limit(limit);
    const [total] = await this.db.select({ n: count() }).from(mailOutbox);
    return { total: Number(total?.n ?? 0), rows };
  }

  async find(id: string): Promise<OutboxRow | undefined> {
    const rows = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
    return rows[0];
  }

  /** Deletes one message; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const rows = await this.db.delete(mailOutbox).where(eq(mailOutbox.id, id)).returning({ id: mailOutbox.id });
    return rows.length > 0;
  }
}
