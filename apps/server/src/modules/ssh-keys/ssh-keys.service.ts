import { HttpError } from '../../http/errors.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import type { Principal } from '../auth/principal.js';
import { parsePublicKey } from './public-key.js';
import type { SshKeysRepository } from './ssh-keys.repository.js';

type KeyRow = Awaited<ReturnType<SshKeysRepository['listFor']>>[number];

function toKey(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.keyType,
    fingerprint: row.fingerprint,
    public_key: row.publicKey,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The caller's own SSH keys: nobody reads or changes another user's keys. */
export class SshKeysService {
  constructor(private readonly keys: SshKeysRepository) {}

  /** The caller's keys. */
  async list(principal: Principal) {
    return { keys: (await this.keys.listFor(principal.userId)).map(toKey) };
  }

  /** Registers a key after checking its format; the same key twice is refused. */
  async add(principal: Principal, name: string, line: string) {
    const parsed = parsePublicKey(line);
    if ('error' in parsed) throw new HttpError(400, parsed.error, [parsed.error]);
    try {
      const row = await this.keys.add({
        userId: principal.userId,
        name,
        keyType: parsed.type,
        publicKey: parsed.normalized,
        fingerprint: parsed.fingerprint,
      });
      return { key: toKey(row), message: 'SSH key added' };
    } catch (error) {
      if (isUniqueViolation(error))
        throw new HttpError(409, `You registered this key already (${parsed.fingerprint}).`);
      throw error;
    }
  }

  /** Removes one of the caller's keys; another user's key id is as unknown as a missing one. */
  async delete(principal: Principal, id: string) {
    if (!(await this.keys.delete(principal.userId, id))) throw new HttpError(404, 'You have no SSH key with that id.');
    return { message: 'SSH key removed' };
  }
}
