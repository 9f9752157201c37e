import type { FastifyBaseLogger } from 'fastify';
import { GeneralSettings } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { SettingsService } from '../modules/settings/settings.service.js';
import { detach } from '../lib/detach.js';
import type { AdmissionLimits } from '../lib/admission.js';

/** How often the limits are read again from the database (another instance may change them); tests shorten it. */
export const LOGIN_LIMITS_TIMING = { rereadMs: 10_000 };

/** What the SSH listener applies to connections that have not authenticated yet. */
export interface SshLoginLimits extends AdmissionLimits {
  /** The key exchange must finish this long after the TCP connection (ms). */
  handshakeMs: number;
  /** Authentication must succeed this long after the TCP connection (ms). */
  loginMs: number;
  /** Failed authentication attempts one connection may make. */
  authAttempts: number;
}

function fromSettings(s: Pick<z.infer<typeof GeneralSettings>, SshLimitField>): SshLoginLimits {
  return {
    handshakeMs: s.ssh_handshake_timeout_seconds * 1000,
    loginMs: s.ssh_login_timeout_seconds * 1000,
    authAttempts: s.ssh_max_auth_attempts,
    perAddress: s.ssh_max_unauthenticated_per_address,
    total: s.ssh_max_unauthenticated,
  };
}

type SshLimitField =
  | 'ssh_handshake_timeout_seconds'
  | 'ssh_login_timeout_seconds'
  | 'ssh_max_auth_attempts'
  | 'ssh_max_unauthenticated_per_address'
  | 'ssh_max_unauthenticated';

/**
 * The SSH login limits of the general settings, held in memory and read again every `rereadMs`:
 * a connection is admitted or refused without asking the database, so refusing stays cheap under
 * a flood and works while the database is away (the last values read, or the defaults, apply).
 */
export class LoginLimits {
  private limits: SshLoginLimits = fromSettings(GeneralSettings.parse({}));
  private readonly timer: NodeJS.Timeout;
  private reading = false;

  constructor(
    private readonly settings: SettingsService,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(
      () => detach(this.log, 'reading the SSH login limits', this.read()),
      LOGIN_LIMITS_TIMING.rereadMs,
    );
    this.timer.unref();
  }

  /** The limits as last read. */
  get current(): SshLoginLimits {
    return this.limits;
  }

  /** Reads the settings now (at start, and by the timer). */
  async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      this.limits = fromSettings(await this.settings.get());
    } finally {
      this.reading = false;
    }
  }

  /** Stops the timer (server shutdown). */
  close(): void {
    clearInterval(this.timer);
  }
}
