import type { FastifyBaseLogger } from 'fastify';
import type { SettingsService } from '../modules/settings/settings.service.js';
import { detach } from '../lib/detach.js';

/**
 * How idle sessions are found: the sweep looks every `checkMs`, and reads the setting from the
 * database again when the last read is older than `rereadMs` (another instance may have changed
 * it). Tests shorten `minuteMs` so that a timeout of one "minute" passes in seconds; nothing else
 * changes these.
 */
export const IDLE_TIMING = { minuteMs: 60_000, checkMs: 5_000, rereadMs: 30_000 };

/** What the sweep needs of a connection. */
export interface IdleCandidate {
  /** Date.now() of the last byte either way (or of the login). */
  readonly lastActivity: number;
  /** Ends the session as idle, telling the user after how many minutes. */
  endIdle(minutes: number): void;
}

/**
 * Ends gateway sessions that saw no input and no output for the general setting
 * idle_timeout_minutes (0 = never). One timer for all connections; one settings read per
 * `rereadMs`, whatever the number of sessions.
 */
export class IdleSweep {
  private minutes = 0;
  private readAt = 0;
  private readonly timer: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly settings: SettingsService,
    private readonly connections: () => Iterable<IdleCandidate>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => detach(this.log, 'idle sweep', this.sweep()), IDLE_TIMING.checkMs);
    this.timer.unref();
  }

  /** The timeout as last read; a new session passes what it read at its start. */
  update(minutes: number): void {
    this.minutes = minutes;
    this.readAt = Date.now();
  }

  private async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      if (Date.now() - this.readAt >= IDLE_TIMING.rereadMs)
        this.update((await this.settings.get()).idle_timeout_minutes);
      if (this.minutes <= 0) return;
      const limit = this.minutes * IDLE_TIMING.minuteMs;
      const now = Date.now();
      for (const connection of this.connections()) {
        if (now - connection.lastActivity >= limit) connection.endIdle(this.minutes);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'idle sessions not checked');
    } finally {
      this.running = false;
    }
  }

  /** Stops the timer (server shutdown). */
  close(): void {
    clearInterval(this.timer);
  }
}
