import { Readable } from 'node:stream';
import type { AuditEntry, AuditFilters } from '@gatehouse/contracts';
import { HttpError } from '../../http/errors.js';
import type { AuditListRepository, AuditListRow, AuditPosition, AuditQuery } from './audit-list.repository.js';
import { csvHeader, csvLine, jsonLine } from './export-format.js';

/** Entries the export reads per query: a keyset page, so memory stays flat at any size. */
const EXPORT_BATCH = 1000;

/** A row as the API answers it. */
export function toEntry(row: Omit<AuditListRow, 'atText'>): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    target: row.target,
    outcome: row.outcome as AuditEntry['outcome'],
    status: row.status,
    source: row.source,
    detail: (row.detail as Record<string, unknown> | null) ?? null,
  };
}

/** A cursor: where the page ended, bound to the order it was made for. */
function encodeCursor(order: string, position: AuditPosition): string {
  return Buffer.from(JSON.stringify([order, position.at, position.id])).toString('base64url');
}

function decodeCursor(cursor: string, order: string): AuditPosition {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== 3 ||
    typeof parts[1] !== 'string' ||
    !Number.isSafeInteger(parts[2]) ||
    Number.isNaN(Date.parse(parts[1]))
  )
    throw new HttpError(400, 'cursor is not one this list gave out; start again without it.');
  if (parts[0] !== order) throw new HttpError(400, 'cursor belongs to another order; start again without it.');
  return { at: parts[1], id: parts[2] as number };
}

function toQuery(filters: AuditFilters, beforeId?: number): AuditQuery {
  if (filters.from && filters.to && Date.parse(filters.from) >= Date.parse(filters.to))
    throw new HttpError(400, 'from must be before to.');
  return { ...filters, beforeId };
}

/** The audit screen's reads: pages of the trail, its actions, and the streamed export. */
export class AuditService {
  constructor(private readonly list: AuditListRepository) {}

  /** One page, newest first unless asked otherwise, with the cursor of the next. */
  async page(filters: AuditFilters & { limit: number; cursor?: string | undefined; before?: number | undefined }) {
    const query = toQuery(filters, filters.before);
    const after =
      filters.cursor && filters.before === undefined ? decodeCursor(filters.cursor, query.order) : undefined;
    const rows = await this.list.page(query, filters.limit + 1, after);
    const more = rows.length > filters.limit;
    const shown = rows.slice(0, filters.limit);
    const last = shown.at(-1);
    return {
      entries: shown.map(toEntry),
      next_cursor: more && last ? encodeCursor(query.order, { at: last.atText, id: last.id }) : null,
    };
  }

  /** Every action in the trail. */
  actions(): Promise<string[]> {
    return this.list.actions();
  }

  /**
   * The filtered trail as a stream of CSV or JSON Lines, read a keyset page at a time as the client
   * takes it (a slow client holds one page, not the trail). Filters are checked before the first byte.
   */
  export(filters: AuditFilters, format: 'csv' | 'jsonl'): Readable {
    const query = toQuery(filters);
    const list = this.list;
    const line = format === 'csv' ? csvLine : jsonLine;
    async function* lines() {
      if (format === 'csv') yield csvHeader();
      let after: AuditPosition | undefined;
      for (;;) {
        const rows = await list.page(query, EXPORT_BATCH, after);
        if (rows.length > 0) yield rows.map((row) => line(toEntry(row))).join('');
        const last = rows.at(-1);
        if (rows.length < EXPORT_BATCH || !last) return;
        after = { at: last.atText, id: last.id };
      }
    }
    return Readable.from(lines(), { objectMode: false, highWaterMark: 64 * 1024 });
  }
}
