import { DEFAULT_TOKEN_MAX_AGE_SECONDS, type ParsedBodyOf, type Routes, SecuritySettings } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { SettingsRepository } from './settings.repository.js';

type Security = z.infer<typeof SecuritySettings>;

/** Defaults until an administrator saves security settings. */
export const DEFAULT_SECURITY: Security = {
  api_limit_single_use: false,
  api_limit_freshness: false,
  api_limit_endpoints: [],
  effectiveTokenMaxAge: DEFAULT_TOKEN_MAX_AGE_SECONDS,
};

/**
 * How long the request path may use settings it read (every request checks the limited
 * endpoints; another instance's change applies here within this time).
 */
const CACHE_MS = 2000;

/** A limited endpoint, compiled. */
interface Limit {
  method: string;
  path: RegExp;
}

/** Reads and saves the security settings, and says which calls they limit. */
export class SecurityService {
  private cached: { at: number; settings: Security; limits: Limit[] } | undefined;

  constructor(private readonly settings: SettingsRepository) {}

  /** The settings in force. */
  async get(): Promise<Security> {
    const stored = SecuritySettings.partial().safeParse(await this.settings.get('security'));
    return { ...DEFAULT_SECURITY, ...(stored.success ? stored.data : {}) };
  }

  /** Changes the fields sent (the caller's freshness was checked before). */
  async save(body: ParsedBodyOf<Routes['saveSecurity']>) {
    const current = await this.get();
    const next: Security = {
      api_limit_single_use: body.api_limit_single_use ?? current.api_limit_single_use,
      api_limit_freshness: body.api_limit_freshness ?? current.api_limit_freshness,
      api_limit_endpoints: body.api_limit_endpoints ?? current.api_limit_endpoints,
      effectiveTokenMaxAge: body.effectiveTokenMaxAge ?? current.effectiveTokenMaxAge,
    };
    await this.settings.put('security', next);
    this.cached = undefined;
    return { message: 'Configuration saved.', security: next };
  }

  /** Which re-authorization a call needs under the settings: none, single-use or freshness. */
  async limitFor(method: string, path: string): Promise<'single-use' | 'freshness' | undefined> {
    if (!this.cached || Date.now() - this.cached.at > CACHE_MS) {
      const settings = await this.get();
      const limits: Limit[] = [];
      for (const e of settings.api_limit_endpoints) {
        try {
          limits.push({ method: e.method.toUpperCase(), path: new RegExp(e.path) });
        } catch {
          // Saved patterns were checked; one that no longer compiles limits nothing.
        }
      }
      this.cached = { at: Date.now(), settings, limits };
    }
    const { settings, limits } = this.cached;
    if (!settings.api_limit_single_use && !settings.api_limit_freshness) return undefined;
    const listed = limits.some((l) => (l.method === '*' || l.method === method) && l.path.test(path));
    if (!listed) return undefined;
    return settings.api_limit_single_use ? 'single-use' : 'freshness';
  }
}
