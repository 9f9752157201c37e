import fs from 'node:fs/promises';
import type { CastEvent, Recording } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import type { RecordingRow, RecordingsRepository } from '../../recordings/recordings.repository.js';
import type { RecordingsService } from '../../recordings/recordings.service.js';
import { type Principal, holdsAdminRole } from '../auth/principal.js';
import type { GroupsRepository } from '../groups/groups.repository.js';
import type { TunnelsRepository } from '../tunnels/tunnels.repository.js';

function toRecording(row: RecordingRow): z.infer<typeof Recording> {
  return {
    id: row.id,
    host: { id: row.agentId, hostname: row.hostname },
    user: { email: row.userEmail },
    started_on: row.startedOn.toISOString(),
    ended_on: row.endedOn?.toISOString() ?? null,
    has_video: row.hasVideo,
    type: row.type as 'ssh',
    tunnel: row.definitionName,
    end_reason: row.endReason,
    terminated_by: row.terminatedBy,
  };
}

/** Sessions as the console sees them: listing, watching (with the object check) and terminating. */
export class SessionsService {
  constructor(
    private readonly rows: RecordingsRepository,
    private readonly recordings: RecordingsService,
    private readonly groups: GroupsRepository,
    private readonly tunnels: TunnelsRepository,
  ) {}

  /** Recordings started in the window (the spec's defaults: 2020-01-01 to now). */
  async list(startText: string | undefined, endText: string | undefined, limit: number) {
    const start = new Date(startText ?? '2020-01-01T00:00:00Z');
    const end = endText ? new Date(endText) : new Date();
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) {
      throw new HttpError(400, 'start and end must be dates, such as 2024-05-01 or 2024-05-01T12:00:00Z');
    }
    return { recordings: (await this.rows.list(start, end, limit)).map(toRecording) };
  }

  /**
   * May this person watch or end sessions on this host? Administrators and holders of
   * list-all-tunnel-definitions may; others only for hosts they reach through their groups or a
   * tunnel definition that admits them.
   */
  async mayReachHost(principal: Principal, agentId: string | null): Promise<boolean> {
    if (holdsAdminRole(principal) || principal.permissions.has('list-all-tunnel-definitions')) return true;
    if (!agentId) return false;
    const groups = await this.groups.memberships(principal.userId);
    if ((await this.groups.agentsOf(groups)).some((a) => a.id === agentId)) return true;
    return (await this.tunnels.listReachable(principal.userId, groups)).some((d) => d.agentId === agentId);
  }

  /** The recording a watcher asks for, after the permission and the object check. */
  async forWatcher(principal: Principal, id: string): Promise<RecordingRow> {
    if (!principal.permissions.has('list-recording'))
      throw new HttpError(403, 'Watching sessions needs the list-recording permission.');
    const row = await this.rows.find(id);
    if (!row || !(await this.mayReachHost(principal, row.agentId)))
      throw new HttpError(404, 'There is no session with that id that you may watch.');
    return row;
  }

  /** Everything recorded so far, up to the last complete chunk, and that chunk's number. */
  async replay(row: RecordingRow): Promise<{ upto: number; events: CastEvent[] }> {
    const chain = (await fs.readFile(`${row.storagePath}.chain`, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    const last = chain.at(-1)?.split(' ');
    const end = last ? Number(last[1]) + Number(last[2]) : 0;
    const content = end > 0 ? (await fs.readFile(row.storagePath)).subarray(0, end).toString('utf8') : '';
    const events = content
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CastEvent);
    return { upto: chain.length, events };
  }

  /** Ends a live session within a second; the user is told who ended it. */
  async terminate(principal: Principal, id: string, hostId: string | undefined) {
    const row = await this.rows.find(id);
    if (!row || !(await this.mayReachHost(principal, row.agentId)))
      throw new HttpError(404, 'There is no session with that id.');
    if (hostId && row.agentId && hostId !== row.agentId)
      throw new HttpError(400, 'The host-id header names another host than the session’s.');
    if (row.endedOn) throw new HttpError(409, 'The session has ended already.');
    const live = this.recordings.find(id);
    if (!live?.terminate)
      throw new HttpError(409, 'The session runs on another server instance or is ending; try again in a moment.');
    live.terminate(principal.email);
    return { message: 'Session terminated' };
  }
}
