import type { FileTransfer } from '@gatehouse/contracts';
import type { z } from 'zod';
import {
  type FileTransferRow,
  type FileTransfersRepository,
  TRANSFERS_LISTED,
} from '../../recordings/file-transfers.repository.js';
import type { Principal } from '../auth/principal.js';
import type { SessionsService } from './sessions.service.js';

function toTransfer(row: FileTransferRow): z.infer<typeof FileTransfer> {
  return {
    id: String(row.id),
    t: row.t,
    protocol: row.protocol as 'sftp',
    op: row.op as 'read',
    path: row.path,
    target: row.target,
    direction: row.direction as 'upload' | null,
    bytes: row.bytes,
    sha256: row.sha256,
    outcome: row.outcome,
    note: row.note,
    created_on: row.createdOn.toISOString(),
  };
}

/** A session's file operations, for whoever may watch the session (the same check as its detail). */
export class TransfersService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly rows: FileTransfersRepository,
  ) {}

  async list(principal: Principal, id: string) {
    await this.sessions.forWatcher(principal, id);
    const rows = await this.rows.list(id);
    return {
      transfers: rows.slice(0, TRANSFERS_LISTED).map(toTransfer),
      truncated: rows.length > TRANSFERS_LISTED,
    };
  }
}
