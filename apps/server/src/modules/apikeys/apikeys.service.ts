import { randomBytes } from 'node:crypto';
import { REGISTRATION_KEY_LIMITS } from '@gatehouse/contracts';
import { HttpError } from '../../http/errors.js';
import { hashToken } from '../auth/tokens.js';
import type { ApiKeysRepository } from './apikeys.repository.js';

type KeyRow = Awaited<ReturnType<ApiKeysRepository['list']>>[number];

function toKey(row: KeyRow) {
  return {
    uuid: row.uuid,
    description: row.description,
    created: row.createdAt.toISOString(),
    created_by: row.createdBy,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt.toISOString(),
    uses: row.uses,
    uses_left: row.usesLeft,
  };
}

/** Registration keys: generated once, stored hashed. */
export class ApiKeysService {
  constructor(private readonly keys: ApiKeysRepository) {}

  /** Every key without its secret. */
  async list() {
    return { keys: (await this.keys.list()).map(toKey) };
  }

  /** Generates a key that enrols at most `uses` agents within `hours`; its secret is in this answer only. */
  async create(
    createdBy: string,
    description: string,
    limits: { hours: number; uses: number } = {
      hours: REGISTRATION_KEY_LIMITS.defaultHours,
      uses: REGISTRATION_KEY_LIMITS.defaultUses,
    },
  ) {
    const key = `ghk_${randomBytes(32).toString('base64url')}`;
    const row = await this.keys.create({
      description,
      keyHash: hashToken(key),
      createdBy,
      hours: limits.hours,
      uses: limits.uses,
    });
    return { ...toKey(row), key, message: 'Registration key created. Copy it now: it is not shown again.' };
  }

  /** Deletes a key. */
  async delete(uuid: string) {
    if (!(await this.keys.delete(uuid))) throw new HttpError(404, 'There is no registration key with that id.');
    return { message: 'Registration key deleted' };
  }
}
