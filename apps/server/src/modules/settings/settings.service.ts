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

  /**
   * The fields of a change that move where mail goes or where emailed links point: any SMTP
   * field that differs from the stored one (or a new SMTP password), and public_url. Reset links
   * to administrators travel through them, so only administrators change them.
   */
  async redirecting(patch: GeneralPatch): Promise<string[]> {
    const current = await this.get();
    const changed: string[] = [];
    const smtp = patch.smtp ?? {};
    for (const key of ['host', 'port', 'secure', 'user', 'from'] as const) {
      if (smtp[key] !== undefined && smtp[key] !== current.smtp[key]) changed.push(`smtp.${key}`);
    }
    if (smtp.password) changed.push('smtp.password');
    if (patch.public_url !== undefined && patch.public_url !== current.public_url) changed.push('public_url');
    return changed;
  }

  /**
   * Applies a partial change and answers the result. An empty SMTP password keeps the stored one,
   * unless the host, port or user changes: the stored password was given for that server and
   * account only, so it is dropped (passwordDropped) unless a new one comes in the same change.
   */
  async save(patch: GeneralPatch): Promise<General & { passwordDropped: boolean }> {
    const current = await this.stored();
    const { password, password_set: _set, ...smtpPatch } = patch.smtp ?? {};
    const sent = Object.fromEntries(Object.entries(smtpPatch).filter(([, v]) => v !== undefined));
    const smtp = { ...current.smtp, ...sent };
    const moved = smtp.host !== current.smtp.host || smtp.port !== current.smtp.port || smtp.user !== current.smtp.user;
    let sealed = moved ? undefined : current.smtp.password_sealed;
    if (password !== undefined && password !== '') sealed = this.box.seal(password);
    const passwordDropped = current.smtp.password_sealed !== undefined && sealed === undefined;
    const next = {
      ...current,
      ...patch,
      smtp: { ...smtp, password: undefined, password_set: undefined, password_sealed: sealed },
    };
    await this.repository.put(KEY, next);
    return { ...(await this.get()), passwordDropped };
  }
}
