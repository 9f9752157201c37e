import type { LegalHold } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import type { RecordingRow, RecordingsRepository } from '../../recordings/recordings.repository.js';
import type { Principal } from '../auth/principal.js';
import type { AccessPolicy } from '../policy/access-policy.js';
import type { LegalHoldRepository } from './legal-hold.repository.js';

/** A row's hold as the API shows it. */
export function holdOf(row: RecordingRow): z.infer<typeof LegalHold> {
  return {
    held: row.legalHold,
    by: row.legalHold ? row.legalHoldBy : null,
    at: row.legalHold ? (row.legalHoldAt?.toISOString() ?? null) : null,
    reason: row.legalHold ? row.legalHoldReason : null,
  };
}

/**
 * Placing and lifting legal holds. The route needs manage-legal-hold; each recording is then asked
 * of the policy (mayHold: the permission and the right to watch it), and one the caller may not
 * see is answered as unknown, like every other recording call.
 */
export class LegalHoldService {
  constructor(
    private readonly rows: RecordingsRepository,
    private readonly holds: LegalHoldRepository,
    private readonly policy: AccessPolicy,
  ) {}

  /** Puts a recording on hold; 409 when it is held already. */
  async place(principal: Principal, id: string, reason: string) {
    await this.visible(principal, id);
    const row = await this.holds.place(id, principal.email, reason);
    if (!row) {
      const now = await this.visible(principal, id);
      throw new HttpError(
        409,
        `This recording is on legal hold already (placed by ${now.legalHoldBy ?? 'someone'}${
          now.legalHoldAt ? ` on ${now.legalHoldAt.toISOString()}` : ''
        }); lift it first to place another.`,
      );
    }
    return {
      message: 'Legal hold placed: retention will keep this recording until the hold is lifted.',
      legal_hold: holdOf(row),
    };
  }

  /** Lifts a recording's hold; 409 when it is not held. */
  async lift(principal: Principal, id: string) {
    await this.visible(principal, id);
    const row = await this.holds.lift(id);
    if (!row) {
      await this.visible(principal, id);
      throw new HttpError(409, 'This recording is not on legal hold: there is nothing to lift.');
    }
    return {
      message: 'Legal hold lifted: retention may remove this recording once it is past the retention period.',
      legal_hold: holdOf(row),
    };
  }

  private async visible(principal: Principal, id: string): Promise<RecordingRow> {
    const row = await this.rows.find(id);
    if (!row || !(await this.policy.mayHold(principal, row)))
      throw new HttpError(404, 'There is no session with that id that you may see.');
    return row;
  }
}
