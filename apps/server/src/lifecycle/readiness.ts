import type { Database } from '../db/client.js';
import { migrations } from '../db/migrations/index.js';

/** A readiness answer reuses a database probe at most this old: probes never hammer the database. */
export const READINESS_PROBE_MAX_AGE_MS = 1000;
/** A probe that has not answered within this long counts as failed (the request does not hang). */
export const READINESS_PROBE_TIMEOUT_MS = 2000;

/** What GET /api/health/ready checked (packages/contracts ReadinessChecks). */
export interface ReadinessChecks {
  database: 'ok' | 'failed';
  migrations: 'ok' | 'pending' | 'unknown';
  ssh: 'ok' | 'failed';
  redis: 'ok' | 'failed' | 'not-configured';
  draining: boolean;
}

/** The answer: ready, or the names of the checks that failed. */
export interface ReadinessReport {
  ready: boolean;
  checks: ReadinessChecks;
  failed: (keyof ReadinessChecks)[];
}

interface DatabaseProbe {
  database: ReadinessChecks['database'];
  migrations: ReadinessChecks['migrations'];
}

/**
 * Whether this instance should be sent new sessions (GET /api/health/ready) and whether the
 * database answers (GET /api/health). The database is asked at most once a second whatever the
 * number of probes (one query in flight, its answer reused for a second), and not at all while
 * db/health.ts already knows it away. The SSH listener and Redis are read from what the server
 * set once they exist; draining turns the answer to 503 at once.
 */
export class Readiness {
  /** Whether the SSH gateway takes connections; set by the server once it listens. */
  ssh: () => boolean = () => false;
  /** Whether Redis is connected; undefined when REDIS_URL is unset. */
  redis: (() => boolean) | undefined;
  private drainingSince: number | undefined;
  private last: { at: number; probe: DatabaseProbe } | undefined;
  private inFlight: Promise<DatabaseProbe> | undefined;
  private readonly expected = migrations.map((m) => m.id);

  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** The instance stops taking new sessions: from now on it answers not ready. */
  drain(): void {
    this.drainingSince ??= this.now();
  }

  /** True once draining began (SIGTERM). */
  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** The database's answer, at most a second old; one probe in flight at a time. */
  async databaseProbe(): Promise<DatabaseProbe> {
    // Known away (a failed query said so; health.ts probes it with backoff): no query from here.
    if (!this.database.health.available) return { database: 'failed', migrations: 'unknown' };
    if (this.last && this.now() - this.last.at < READINESS_PROBE_MAX_AGE_MS) return this.last.probe;
    this.inFlight ??= this.probe().then((probe) => {
      this.last = { at: this.now(), probe };
      this.inFlight = undefined;
      return probe;
    });
    return this.inFlight;
  }

  /** Every check, now. */
  async report(): Promise<ReadinessReport> {
    const probe = await this.databaseProbe();
    const checks: ReadinessChecks = {
      ...probe,
      ssh: this.ssh() ? 'ok' : 'failed',
      redis: this.redis ? (this.redis() ? 'ok' : 'failed') : 'not-configured',
      draining: this.draining,
    };
    const failed = (Object.keys(checks) as (keyof ReadinessChecks)[]).filter((name) =>
      name === 'draining' ? checks.draining : !['ok', 'not-configured'].includes(checks[name] as string),
    );
    return { ready: failed.length === 0, checks, failed };
  }

  private async probe(): Promise<DatabaseProbe> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), READINESS_PROBE_TIMEOUT_MS);
      timer.unref();
    });
    try {
      // One query answers both: the database is there, and which migrations it holds.
      const rows = await Promise.race([
        this.database.query<{ id: string }>('SELECT id FROM schema_migrations'),
        timeout,
      ]);
      if (!rows) return { database: 'failed', migrations: 'unknown' };
      const applied = new Set(rows.map((r) => r.id));
      return { database: 'ok', migrations: this.expected.every((id) => applied.has(id)) ? 'ok' : 'pending' };
    } catch {
      return { database: 'failed', migrations: 'unknown' };
    } finally {
      clearTimeout(timer);
    }
  }
}
