import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditListRepository } from '../audit-list.repository.js';
import { toEntry } from '../audit.service.js';
import { type SinkName, SINKS, type SinksRepository } from './sinks.repository.js';
import type { StreamingSettings, StreamingSettingsStore } from './streaming-settings.js';
import { sendSyslog } from './syslog.js';
import { sendWebhook } from './webhook.js';

/** Entries per delivery. */
const BATCH = 200;
/** How long a lease lasts: longer than a delivery may take (10 s timeouts), shorter than anyone waits. */
const LEASE_SECONDS = 60;
/**
 * Entries younger than this wait: ids are taken before commit, so an entry whose insert is still
 * in flight could otherwise be passed by a later id that committed first.
 */
const SETTLE_MS = 2000;
/** Retries back off from 2 s, doubling, to at most 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2000 * 2 ** Math.min(attempts, 20), 300_000);
}

/** A delivery error as the status shows it: one line, short, never the secret. */
function describe(error: unknown, secret: string | undefined): string {
  let text = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.cause instanceof Error) text += `: ${error.cause.message}`;
  if (secret) text = text.split(secret).join('[secret]');
  return text.replace(/[\p{Cc}]+/gu, ' ').slice(0, 500);
}

/**
 * Streams the audit trail to the configured sinks. Every instance runs one; the lease in
 * audit_sinks lets one send at a time, delivered_id says how far it got, so entries survive a
 * restart and are not sent twice by two instances (at-least-once: an instance that dies between
 * sending and recording it may leave a batch to be sent again).
 */
export class AuditStreamer {
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly store: StreamingSettingsStore,
    private readonly sinks: SinksRepository,
    private readonly list: AuditListRepository,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 1000,
  ) {}

  /** Starts the loop. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running ??= this.tick()
        .catch((err: unknown) => this.log.warn({ err: describe(err, undefined) }, 'audit streaming tick failed'))
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the loop, waiting for a delivery in progress. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass over the sinks (exported for tests that do not wait for the timer). */
  async tick(): Promise<void> {
    const settings = await this.store.get();
    for (const sink of SINKS) if (settings[sink].enabled) await this.deliver(sink, settings);
  }

  private async deliver(sink: SinkName, settings: StreamingSettings): Promise<void> {
    const leased = await this.sinks.lease(sink, this.owner, LEASE_SECONDS);
    if (!leased) return;
    const rows = await this.list.afterId(leased.deliveredId, BATCH);
    const settled = rows.findIndex((row) => row.ageMs < SETTLE_MS);
    const due = settled === -1 ? rows : rows.slice(0, settled);
    const last = due.at(-1);
    if (!last) return this.sinks.release(sink, this.owner);
    let secret: string | undefined;
    try {
      const entries = due.map(toEntry);
      if (sink === 'syslog') await sendSyslog(settings.syslog, entries);
      else {
        secret = this.store.webhookSecret(settings);
        if (!secret) throw new Error('no webhook secret is set');
        await sendWebhook(settings.webhook.url, secret, entries);
      }
    } catch (error) {
      const why = describe(error, secret);
      const delay = retryDelayMs(leased.attempts);
      this.log.warn({ sink, attempts: leased.attempts + 1, retryInMs: delay, error: why }, 'audit delivery failed');
      return this.sinks.failed(sink, this.owner, why, delay);
    }
    if (!(await this.sinks.delivered(sink, this.owner, last.id)))
      this.log.warn({ sink }, 'audit delivery outlasted its lease: another instance may send the batch again');
  }
}
