import type { AuditStreaming } from '@gatehouse/contracts';
import type { AuditListRepository } from '../audit-list.repository.js';
import { type SinkName, SINKS, type SinksRepository } from './sinks.repository.js';
import type { StreamingInput, StreamingSettings, StreamingSettingsStore } from './streaming-settings.js';

/** The settings screen's view of streaming: settings (never the secret) and each sink's delivery status. */
export class StreamingService {
  constructor(
    private readonly store: StreamingSettingsStore,
    private readonly sinks: SinksRepository,
    private readonly list: AuditListRepository,
  ) {}

  /** Settings and status as the API answers them. */
  async view(): Promise<AuditStreaming> {
    return this.answer(await this.store.get());
  }

  /**
   * Saves the settings. A sink switched on starts after the newest entry (a SIEM is not flooded with
   * the whole history); one switched on again after a pause resumes where it stopped only if it
   * was never switched off, so each enabling is a clear start.
   */
  async save(input: StreamingInput): Promise<AuditStreaming> {
    const { before, after } = await this.store.save(input);
    for (const sink of SINKS) {
      if (after[sink].enabled && !before[sink].enabled) await this.sinks.restartAfter(sink, await this.list.lastId());
      else if (JSON.stringify(after[sink]) !== JSON.stringify(before[sink])) await this.sinks.retryNow(sink);
    }
    return this.answer(after);
  }

  private async answer(settings: StreamingSettings): Promise<AuditStreaming> {
    const [syslog, webhook] = await Promise.all(SINKS.map((sink) => this.status(sink)));
    const { secretSealed, ...hook } = settings.webhook;
    return {
      syslog: settings.syslog,
      webhook: { ...hook, secret_set: secretSealed !== null },
      status: { syslog: syslog!, webhook: webhook! },
    };
  }

  private async status(sink: SinkName) {
    const row = await this.sinks.get(sink);
    const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
    return {
      delivered_through: row?.deliveredId ?? 0,
      pending: row ? await this.list.countAfter(row.deliveredId) : 0,
      last_delivery_at: iso(row?.lastDeliveryAt),
      last_error: row?.lastError ?? null,
      last_error_at: iso(row?.lastErrorAt),
      next_attempt_at: iso(row?.nextAttemptAt),
    };
  }
}
