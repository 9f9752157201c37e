import { GeneralSettings } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { SecretBox } from '../../lib/secret-box.js';
import type { SettingsRepository } from './settings.repository.js';

type General = z.infer<typeof GeneralSettings>;
/** What may change in one save. */
export type GeneralPatch = Partial<Omit<General, 'smtp'>> & { smtp?: Partial<General['smtp']> | undefined };

const KEY = 'general';

/** General settings: defaults, partial saves, and the SMTP password sealed at rest. */
export class SettingsService {
  constructor(
    private readonly repository: SettingsRepository,
    private readonly box: SecretBox,
  ) {}

  private async stored(): Promise<General & { smtp: { password_sealed?: string } }> {
    const raw = (await this.repository.get(KEY)) as Record<string, unknown> | undefined;
    const parsed = GeneralSettings.safeParse(raw ?? {});
    const base = parsed.success ? parsed.data : GeneralSettings.parse({});
    const sealed = (raw?.smtp as { password_sealed?: unknown } | undefined)?.password_sealed;
    return { ...base, smtp: { ...base.smtp, ...(typeof sealed === 'string' ? { password_sealed: sealed } : {}) } };
  }

  /** The settings as the API answers them: never the SMTP password, only whether one is stored. */
  async get(): Promise<General> {
    const { smtp, ...rest } = await this.stored();
    const { password_sealed, password: _password, ...visible } = smtp;
    return { ...rest, smtp: { ...visible, password_set: password_sealed !== undefined } };
  }

  /** SMTP settings with the password opened, for sending mail. */
  async smtpWithPassword(): Promise<General['smtp'] & { password: string }> {
    const { smtp } = await this.stored();
    return { ...smtp, password: smtp.password_sealed ? this.box.open(smtp.password_sealed) : '' };
  }

  /** Applies a partial change and answers the result. An empty SMTP password keeps the stored one. */
  async save(patch: GeneralPatch): Promise<General> {
    const current = await this.stored();
    const { password, password_set: _set, ...smtpPatch } = patch.smtp ?? {};
    let sealed = current.smtp.password_sealed;
    if (password !== undefined && password !== '') sealed = this.box.seal(password);
    const next = {
      ...current,
      ...patch,
      smtp: { ...current.smtp, ...smtpPatch, password: undefined, password_set: undefined, password_sealed: sealed },
    };
    await this.repository.put(KEY, next);
    return this.get();
  }
}
