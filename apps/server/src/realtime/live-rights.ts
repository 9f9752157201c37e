import type { FastifyBaseLogger } from 'fastify';
import type { RawSql } from '../db/client.js';
import { detach, logFailure } from '../lib/detach.js';

/**
 * How fast withdrawn rights reach live connections: every instance reads the rights_changes
 * fingerprint every `pollMs` (one cheap query), so a connection is re-checked within a second of
 * the change, whichever instance made it; rows older than `keepMinutes` are pruned every `pruneMs`.
 */
export const LIVE_RIGHTS_TIMING = { pollMs: 500, pruneMs: 60_000, keepMinutes: 10 };

/** The audit action of a live connection closed because its rights were withdrawn. */
export const REVOKED_ACTION = 'live.revoked';

/** A live connection whose rights can be withdrawn while it is open. */
export interface LiveHolder {
  /** The token hash that admitted it, when a token did: revoking that token here re-checks it at once. */
  readonly tokenHash?: string | undefined;
  /** When its token expires (ms since the epoch): it is re-checked then, whatever else happens. */
  expiresAt?: number | undefined;
  /**
   * Asks the policy again with what holds now and, when the answer is no, tells the client why,
   * audits it and ends the connection. Called again whenever rights change; never concurrently.
   */
  recheck(): Promise<void>;
  /**
   * Ends the connection because its rights could not be read for longer than the outage grace
   * (the database away): what it holds can no longer be withdrawn, so it stops, in words. Holders
   * without it (console sockets, whose every call needs the database anyway) stay open.
   */
  endForOutage?(message: string): void;
}

/** How long live connections go on while the database cannot be read (rights cannot be withdrawn then). */
export const DEFAULT_OUTAGE_GRACE_MS = 5 * 60_000;

/** What a connection ended by a long database outage is told. */
export function outageMessage(graceMs: number): string {
  const minutes = Math.max(1, Math.round(graceMs / 60_000));
  return `Gatehouse could not reach its database for more than ${minutes} minute${minutes === 1 ? '' : 's'} and can no longer check your access, so the session was ended. Its recording is kept. Connect again once the database is back.`;
}

/**
 * The live connections of this instance (console sockets, agent sockets, tunnels, SSH sessions) and
 * what re-checks them: a change to rights anywhere (migration 0015 appends a row to rights_changes in
 * the changing transaction, so it is seen once committed, on every instance sharing the database), a
 * token revoked on this instance (at once), or a token reaching its expiry.
 */
export class LiveRights {
  private readonly holders = new Set<LiveHolder>();
  /** Holders being re-checked, and whether another re-check was asked meanwhile. */
  private readonly running = new Map<LiveHolder, { again: boolean }>();
  private fingerprint: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  private polling = false;
  /** Since when the changes could not be read (the database away), if they cannot now. */
  private blindSince: number | undefined;
  private outageEnded = false;

  constructor(
    private readonly sql: RawSql,
    private readonly log: FastifyBaseLogger,
    /** How long connections go on without their rights being readable before they are ended. */
    private readonly outageGraceMs = DEFAULT_OUTAGE_GRACE_MS,
  ) {}

  /** Starts polling (the server does, once migrated; services used without a server never poll). */
  async start(): Promise<void> {
    if (this.timer) return;
    this.fingerprint = await this.read();
    this.timer = setInterval(() => detach(this.log, 'live rights poll', this.poll()), LIVE_RIGHTS_TIMING.pollMs);
    this.timer.unref();
    this.pruner = setInterval(() => detach(this.log, 'live rights prune', this.prune()), LIVE_RIGHTS_TIMING.pruneMs);
    this.pruner.unref();
  }

  /** Tracks a connection until the answered function is called (when it closes). */
  track(holder: LiveHolder): () => void {
    this.holders.add(holder);
    return () => {
      this.holders.delete(holder);
    };
  }

  /** How many connections this instance tracks. */
  get size(): number {
    return this.holders.size;
  }

  /** A token was revoked on this instance: its connections are re-checked now, not at the next poll. */
  tokenRevoked(tokenHash: string): void {
    for (const holder of this.holders)
      if (holder.tokenHash === tokenHash) detach(this.log, 'live rights re-check', this.recheck(holder));
  }

  /** Re-checks every connection of this instance; resolves when all have answered. */
  async recheckAll(): Promise<void> {
    await Promise.all([...this.holders].map((holder) => this.recheck(holder)));
  }

  /** Stops polling (server shutdown); the connections themselves are closed by their owners. */
  close(): void {
    clearInterval(this.timer);
    clearInterval(this.pruner);
    this.timer = undefined;
    this.holders.clear();
  }

  /** Re-checks one holder; a re-check asked while one runs runs once more after it. */
  private recheck(holder: LiveHolder): Promise<void> {
    const state = this.running.get(holder);
    if (state) {
      state.again = true;
      return Promise.resolve();
    }
    const mine = { again: false };
    this.running.set(holder, mine);
    const run = async (): Promise<void> => {
      try {
        do {
          mine.again = false;
          if (!this.holders.has(holder)) return;
          await holder.recheck().catch((error: unknown) => {
            // A failed re-check (the database away) is retried at the next change or poll: nothing is
            // granted by it, and the connection keeps what it was last admitted to (for the outage grace).
            logFailure(this.log, error, 'live rights: a connection could not be re-checked');
          });
        } while (mine.again);
      } finally {
        this.running.delete(holder);
      }
    };
    return run();
  }

  private async read(): Promise<string> {
    const rows = await this.sql.query<{ n: number | string; s: string | null }>(
      'SELECT count(*) AS n, sum(id)::text AS s FROM rights_changes',
    );
    return `${rows[0]?.n ?? 0}:${rows[0]?.s ?? 0}`;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const now = Date.now();
      const expired = [...this.holders].filter((h) => h.expiresAt !== undefined && h.expiresAt <= now);
      const fingerprint = await this.read();
      this.blindSince = undefined;
      this.outageEnded = false;
      if (fingerprint !== this.fingerprint) {
        this.fingerprint = fingerprint;
        await this.recheckAll();
      } else {
        await Promise.all(expired.map((h) => this.recheck(h)));
      }
    } catch (error) {
      logFailure(this.log, error, 'live rights: changes not read');
      this.blind(Date.now());
    } finally {
      this.polling = false;
    }
  }

  /** The changes could not be read: past the grace, every connection that can be ended is, once. */
  private blind(now: number): void {
    this.blindSince ??= now;
    if (this.outageEnded || now - this.blindSince < this.outageGraceMs) return;
    this.outageEnded = true;
    const ending = [...this.holders].filter((h) => h.endForOutage !== undefined);
    this.log.warn(
      { connections: ending.length, outageMs: now - this.blindSince },
      'rights unreadable past the outage grace: ending live sessions',
    );
    const message = outageMessage(this.outageGraceMs);
    for (const holder of ending) {
      try {
        holder.endForOutage?.(message);
      } catch (error) {
        this.log.error({ err: error }, 'live rights: a connection could not be ended');
      }
    }
  }

  private async prune(): Promise<void> {
    try {
      await this.sql.query(
        `DELETE FROM rights_changes WHERE at < clock_timestamp() - interval '${LIVE_RIGHTS_TIMING.keepMinutes} minutes'`,
      );
    } catch (error) {
      logFailure(this.log, error, 'live rights: old changes not pruned');
    }
  }
}
