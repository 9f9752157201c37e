import { DEFAULT_TOKEN_MAX_AGE_SECONDS, SecuritySettings } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { SettingsRepository } from './settings.repository.js';

type Security = z.infer<typeof SecuritySettings>;

/** Defaults until an administrator saves security settings (issue 7 adds saving). */
export const DEFAULT_SECURITY: Security = {
  api_limit_single_use: false,
  api_limit_freshness: false,
  api_limit_endpoints: [],
  effectiveTokenMaxAge: DEFAULT_TOKEN_MAX_AGE_SECONDS,
};

/** Reads the security settings, falling back to defaults field by field. */
export class SecurityService {
  constructor(private readonly settings: SettingsRepository) {}

  /** The settings in force. */
  async get(): Promise<Security> {
    const stored = SecuritySettings.partial().safeParse(await this.settings.get('security'));
    return { ...DEFAULT_SECURITY, ...(stored.success ? stored.data : {}) };
  }
}
