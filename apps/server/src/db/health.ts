import { EventEmitter } from 'node:events';

/** What the health tracker logs with (the server's logger, or a test's). */
export interface HealthLog {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/** How often an unreachable database is probed: from 0.5 s, doubling, never more than 5 s apart. */
export const DB_PROBE_TIMING = { firstMs: 500, maxMs: 5000 };

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

const UNREACHABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /Client was closed/i,
  /Cannot use a pool after calling end/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/**
 * True when an error (raw, or wrapped by the query layer as its cause) says the database could not
 * be reached or dropped the connection, rather than refusing the statement: the caller answers 503
 * and tries again later instead of reporting a fault in the request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    // AggregateError (a host name with several addresses, every one refused).
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether the database answers, as this process last saw it. A dropped connection or a failed
 * query that says the database is away marks it down (logged once); from then on it is probed
 * with a growing delay until it answers, which marks it up again (logged once, with how long it
 * was away). Events: 'down' (message), 'up' (outage in ms).
 */
export class DatabaseHealth extends EventEmitter {
  private downSince: number | undefined;
  private lastError = '';
  private probeTimer: NodeJS.Timeout | undefined;
  private probeDelay = DB_PROBE_TIMING.firstMs;
  private closed = false;

  constructor(
    private readonly probe: () => Promise<unknown>,
    private log: HealthLog | undefined = undefined,
  ) {
    super();
  }

  /** Sets the logger once the server has one. */
  useLog(log: HealthLog): void {
    this.log = log;
  }

  /** True unless the database was last seen away. */
  get available(): boolean {
    return this.downSince === undefined;
  }

  /** True once the server stopped using the database (nothing retries after that). */
  get stopped(): boolean {
    return this.closed;
  }

  /** While away: since when, and the last reason. */
  get outage(): { since: Date; reason: string } | undefined {
    return this.downSince === undefined ? undefined : { since: new Date(this.downSince), reason: this.lastError };
  }

  /** Reports an error: marks the database down when the error says it is away; answers whether it did. */
  failed(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.lastError = error instanceof Error ? error.message : String(error);
    if (this.downSince !== undefined || this.closed) return true;
    this.downSince = Date.now();
    this.probeDelay = DB_PROBE_TIMING.firstMs;
    this.log?.warn(
      { reason: this.lastError },
      'database unreachable: API calls answer 503 and live sessions go on; retrying with backoff',
    );
    this.emit('down', this.lastError);
    this.scheduleProbe();
    return true;
  }

  /** Reports a success: the database answers again. */
  succeeded(): void {
    if (this.downSince === undefined) return;
    const outageMs = Date.now() - this.downSince;
    this.downSince = undefined;
    clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    this.log?.info({ outageMs }, 'database reachable again');
    this.emit('up', outageMs);
  }

  /** Stops probing (the server is stopping). */
  close(): void {
    this.closed = true;
    clearTimeout(this.probeTimer);
  }

  private scheduleProbe(): void {
    if (this.closed) return;
    this.probeTimer = setTimeout(() => {
      this.probe().then(
        () => this.succeeded(),
        (error: unknown) => {
          if (this.downSince === undefined) return;
          if (!isDatabaseUnavailable(error)) this.lastError = error instanceof Error ? error.message : String(error);
          this.probeDelay = Math.min(this.probeDelay * 2, DB_PROBE_TIMING.maxMs);
          this.scheduleProbe();
        },
      );
    }, this.probeDelay);
    this.probeTimer.unref();
  }
}
