import { randomBytes } from 'node:crypto';
import { HttpError } from '../../http/errors.js';
import { hashToken } from '../auth/tokens.js';
import type { ApiKeysRepository } from './apikeys.repository.js';

type KeyRow = Awaited<ReturnType<ApiKeysRepository['list']>>[number];

function toKey(row: KeyRow) {
  return {
    uuid: row.uuid,
    description: row.description,
    permissions: row.permissions,
    created: row.createdAt.toISOString(),
    created_by: row.createdBy,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Registration keys: generated once, stored hashed. */
export class ApiKeysService {
  constructor(private readonly keys: ApiKeysRepository) {}

  /** Every key without its secret. */
  async list() {
    return { keys: (await this.keys.list()).map(toKey) };
  }

  /** Generates a key; its secret is in this answer only. */
  async create(createdBy: string, description: string, permissions: string[]) {
    const key = `ghk_${randomBytes(32).toString('base64url')}`;
    const row = await this.keys.create({
      description,
      permissions,
      keyHash: hashToken(key),
      createdBy,
    });
    return { ...toKey(row), key, message: 'Registration key created. Copy it now: it is not shown again.' };
  }

  /** Deletes a key. */
  async delete(uuid: string) {
    if (!(await this.keys.delete(uuid))) throw new HttpError(404, 'There is no registration key with that id.');
    return { message: 'Registration key deleted' };
  }
}
