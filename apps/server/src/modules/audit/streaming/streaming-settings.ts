import type { SYSLOG_FACILITIES } from '@gatehouse/contracts';
import { HttpError } from '../../../http/errors.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import type { SettingsRepository } from '../../settings/settings.repository.js';

/** The settings document's key. */
const KEY = 'audit_streaming';

/** Syslog sink settings. */
export interface SyslogSettings {
  enabled: boolean;
  host: string;
  port: number;
  tls: boolean;
  ca: string;
  facility: keyof typeof SYSLOG_FACILITIES;
}

/** Webhook sink settings; the secret only ever sealed at rest. */
export interface WebhookSettings {
  enabled: boolean;
  url: string;
  secretSealed: string | null;
}

/** Both sinks' settings as stored. */
export interface StreamingSettings {
  syslog: SyslogSettings;
  webhook: WebhookSettings;
}

const DEFAULTS: StreamingSettings = {
  syslog: { enabled: false, host: '', port: 6514, tls: true, ca: '', facility: 'authpriv' },
  webhook: { enabled: false, url: '', secretSealed: null },
};

/** What an administrator saves (the secret in clear, once, on its way to being sealed). */
export interface StreamingInput {
  syslog: SyslogSettings;
  webhook: { enabled: boolean; url: string; secret?: string | undefined };
}

/** The streaming settings in SQL (every instance reads the same), the webhook secret sealed. */
export class StreamingSettingsStore {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
  ) {}

  /** The stored settings, defaults filled in. */
  async get(): Promise<StreamingSettings> {
    const stored = (await this.settings.get(KEY)) as Partial<StreamingSettings> | undefined;
    return {
      syslog: { ...DEFAULTS.syslog, ...stored?.syslog },
      webhook: { ...DEFAULTS.webhook, ...stored?.webhook },
    };
  }

  /** Saves new settings; a webhook without a new secret keeps the current one. Answers the old and new. */
  async save(input: StreamingInput): Promise<{ before: StreamingSettings; after: StreamingSettings }> {
    const before = await this.get();
    const secretSealed = input.webhook.secret ? this.box.seal(input.webhook.secret) : before.webhook.secretSealed;
    if (input.webhook.enabled && !secretSealed)
      throw new HttpError(400, 'webhook secret is required to enable the webhook (16 to 200 characters).');
    const after: StreamingSettings = {
      syslog: input.syslog,
      webhook: { enabled: input.webhook.enabled, url: input.webhook.url, secretSealed },
    };
    await this.settings.put(KEY, after);
    return { before, after };
  }

  /** The webhook secret in clear, for signing only. */
  webhookSecret(settings: StreamingSettings): string | undefined {
    return settings.webhook.secretSealed ? this.box.open(settings.webhook.secretSealed) : undefined;
  }
}
