import type { FastifyBaseLogger } from 'fastify';
import type { AuditInput } from '../modules/audit/audit.repository.js';

/** How long one report window lasts; tests shorten it. */
export const BURST_TIMING = { windowMs: 10_000 };

/** Distinct addresses a window names; the rest are counted together as `others`. */
const ADDRESSES_KEPT = 1000;
/** Addresses a summary names, most frequent first. */
const ADDRESSES_NAMED = 10;

/** What a listener reports: the audit action of its summaries, and what it refuses or closes. */
export interface BurstReportOptions {
  /** The listener, in log lines and as the audit target: 'ssh', 'http'. */
  listener: string;
  /** The audit action of a window's summary. */
  action: string;
  log: FastifyBaseLogger;
  /** Writes the summary's audit entry; a failure is logged, never thrown. */
  audit?: (entry: AuditInput) => Promise<void>;
}

/**
 * Refusals and deadline closes, reported once per burst instead of once per connection: the first
 * event of a quiet period is logged at once; events in the next `windowMs` are only counted (by
 * reason and address, in bounded memory), then one line and one audit entry summarise the window.
 * A flood of 20,000 connections costs a few lines and one entry per window, never one per connection.
 */
export class BurstReport {
  private window: NodeJS.Timeout | undefined;
  private events = 0;
  private readonly reasons = new Map<string, number>();
  private readonly addresses = new Map<string, number>();
  private others = 0;
  private startedAt = 0;

  constructor(private readonly options: BurstReportOptions) {}

  /** One connection refused or closed for `reason`, from `address`. */
  note(reason: string, address: string): void {
    if (!this.window) {
      this.options.log.warn(
        { listener: this.options.listener, reason, address },
        `${this.options.listener}: connection from ${address} refused or closed (${reason}); further ones are summarised`,
      );
      this.open();
    }
    this.events += 1;
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
    if (this.addresses.has(address) || this.addresses.size < ADDRESSES_KEPT)
      this.addresses.set(address, (this.addresses.get(address) ?? 0) + 1);
    else this.others += 1;
  }

  /** Summarises what is counted and stops (server shutdown). */
  close(): void {
    if (this.window) clearTimeout(this.window);
    this.window = undefined;
    this.summarise();
  }

  private open(): void {
    this.startedAt = Date.now();
    this.window = setTimeout(() => this.tick(), BURST_TIMING.windowMs);
    this.window.unref();
  }

  private tick(): void {
    this.window = undefined;
    const busy = this.events > 0;
    this.summarise();
    // A burst still going on keeps a window open, so its next part is summarised too without a new first line.
    if (busy) this.open();
  }

  private summarise(): void {
    if (this.events === 0) return;
    const top = [...this.addresses.entries()].sort((a, b) => b[1] - a[1]).slice(0, ADDRESSES_NAMED);
    const detail = {
      events: this.events,
      seconds: Math.round((Date.now() - this.startedAt) / 100) / 10,
      reasons: Object.fromEntries(this.reasons),
      addresses: Object.fromEntries(top),
      distinct_addresses: this.addresses.size + (this.others > 0 ? 1 : 0),
      ...(this.others > 0 ? { others: this.others } : {}),
    };
    const { listener, action, log, audit } = this.options;
    if (this.events > 1) log.warn({ listener, ...detail }, `${listener}: ${this.events} connections refused or closed`);
    audit?.({
      action,
      target: listener,
      outcome: 'denied',
      source: top.length === 1 ? top[0]![0] : null,
      detail,
    }).catch((err: unknown) => log.warn({ err }, `${listener}: audit summary of refused connections not written`));
    this.events = 0;
    this.others = 0;
    this.reasons.clear();
    this.addresses.clear();
  }
}
