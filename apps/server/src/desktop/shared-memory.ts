import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Linux's table of System V shared memory segments, one per line under a header of field names. */
const SEGMENTS_TABLE = '/proc/sysvipc/shm';

/**
 * The System V shared memory segments that process `pid` created as this process's user, read from
 * Linux's table (none where there is no such table).
 */
export function segmentsCreatedBy(pid: number, table = SEGMENTS_TABLE): number[] {
  let text: string;
  try {
    text = fs.readFileSync(table, 'utf8');
  } catch {
    return [];
  }
  const [header = '', ...rows] = text.trim().split('\n');
  const names = header.trim().split(/\s+/);
  const [id, creator, creatorUid] = ['shmid', 'cpid', 'cuid'].map((name) => names.indexOf(name));
  if (id === undefined || creator === undefined || creatorUid === undefined || [id, creator, creatorUid].includes(-1))
    return [];
  const me = process.getuid?.();
  return rows
    .map((row) => row.trim().split(/\s+/))
    .filter((cells) => Number(cells[creator]) === pid && (me === undefined || Number(cells[creatorUid]) === me))
    .map((cells) => Number(cells[id]));
}

/**
 * Marks for removal the segments that processes which died by a signal left behind (x11vnc and
 * FreeRDP share their pictures with the X server through MIT-SHM, and free them only in their own
 * exit path). A segment still attached, to the X server say, goes once it is detached. Without this
 * each x11vnc killed with SIGKILL keeps 27 segments for good, and at the kernel's limit (4,096 by
 * default, kernel.shmmni) no x11vnc starts: "shmget: No space left on device". Synchronous (one
 * short ipcrm, and only when there is something to release), so a caller that is about to exit
 * leaves nothing behind. Answers the ids.
 */
export function releaseSegmentsOf(...pids: number[]): number[] {
  const ids = pids.flatMap((pid) => segmentsCreatedBy(pid));
  if (ids.length === 0) return [];
  try {
    execFileSync(
      'ipcrm',
      ids.flatMap((segment) => ['-m', String(segment)]),
      { stdio: 'ignore' },
    );
  } catch {
    // ipcrm missing, or a segment gone meanwhile: the others were still marked
  }
  return ids;
}
