import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { formatDateTime } from '../../lib/dates';

/** One session as the list answers it. */
export type SessionRow = ResponseOf<Routes['listRecordings']>['recordings'][number];

/** What kind of session a row is, as the Type column shows it. */
export type SessionKind = SessionRow['type'];

/** What an SSH session's first channel can be, as the Kind column and filter show it. */
export const CHANNEL_KINDS = ['shell', 'exec', 'sftp', 'scp', 'forward'] as const satisfies readonly NonNullable<
  SessionRow['kind']
>[];

/** The Kind filter's values: the channel kinds, and browser desktops run (and filmed) by the gateway. */
export const KIND_FILTERS = [...CHANNEL_KINDS, 'desktop'] as const satisfies readonly NonNullable<SessionRow['kind']>[];
export type KindFilter = (typeof KIND_FILTERS)[number];

/**
 * An rdp session the gateway ran as a browser desktop (kind 'desktop', filmed at the gateway and
 * watched live at #/desktop/watch/:id), as opposed to a native RDP client through a tunnel.
 */
export function isGatewayDesktop(row: Pick<SessionRow, 'kind'>): boolean {
  return row.kind === 'desktop';
}

/** The fields spec §3 derives on the client from a session recording. */
export interface SessionView {
  id: string;
  /** True while ended_on is absent. */
  isLive: boolean;
  status: 'live' | 'finished';
  /** RDP when the session has a video, otherwise the gateway's type (ssh, generic, agent). */
  sessionType: SessionKind;
  hostname: string;
  username: string;
  tunnel: string | null;
  /** Unix seconds. */
  startedOnX: number;
  /** Unix seconds, or null while live. */
  endedOnX: number | null;
  /** Local 'L LT', or '-' when absent. */
  formattedStartTime: string;
  formattedEndTime: string;
  /** Ended minus started, or now minus started while live; never negative. */
  duration: number;
}

/** A server time with a zone: one without gets Z appended, so it reads as UTC (spec §3). */
export function withZone(value: string): string {
  return /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
}

/** Milliseconds since the epoch of a server time (UTC when it has no zone). */
export function timeMs(value: string): number {
  return Date.parse(withZone(value));
}

/** True while the session has not ended. */
export function isLive(row: Pick<SessionRow, 'ended_on'>): boolean {
  return !row.ended_on;
}

/** RDP if the session has a video, else the type the gateway recorded (spec §3 SessionType). */
export function sessionType(row: Pick<SessionRow, 'has_video' | 'type'>): SessionKind {
  return row.has_video ? 'rdp' : row.type;
}

/** The session's length in ms: ended minus started, or now minus started while live. */
export function durationOf(row: Pick<SessionRow, 'started_on' | 'ended_on'>, now: number): number {
  const end = row.ended_on ? timeMs(row.ended_on) : now;
  return Math.max(0, end - timeMs(row.started_on));
}

/** Every derived field of one session, at time `now` (ms since the epoch). */
export function deriveSession(row: SessionRow, now: number): SessionView {
  const live = isLive(row);
  return {
    id: row.id,
    isLive: live,
    status: live ? 'live' : 'finished',
    sessionType: sessionType(row),
    hostname: row.host.hostname,
    username: row.user.email,
    tunnel: row.tunnel,
    startedOnX: Math.floor(timeMs(row.started_on) / 1000),
    endedOnX: row.ended_on ? Math.floor(timeMs(row.ended_on) / 1000) : null,
    formattedStartTime: formatDateTime(row.started_on),
    formattedEndTime: formatDateTime(row.ended_on),
    duration: durationOf(row, now),
  };
}
