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

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Calendar-free units, as duration libraries count them: a month is 30 days, a year 365. */
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

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

/** The parts a duration is shown in. */
export interface DurationParts {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  milliseconds: number;
}

/** Splits milliseconds into years, months (30 days), days, hours, minutes, seconds and ms. */
export function durationParts(ms: number): DurationParts {
  let rest = Math.max(0, Math.floor(ms));
  const take = (unit: number) => {
    const value = Math.floor(rest / unit);
    rest -= value * unit;
    return value;
  };
  return {
    years: take(YEAR),
    months: take(MONTH),
    days: take(DAY),
    hours: take(HOUR),
    minutes: take(MINUTE),
    seconds: take(SECOND),
    milliseconds: rest,
  };
}

const UNITS = ['year', 'month', 'day', 'hour', 'minute'] as const;

/**
 * FormattedDuration (spec §3): the non-zero parts from years down to seconds in the language's
 * short units ("2 hr 5 min 7 sec"); seconds always show. A live session is prefixed '+' and
 * counts whole seconds; a finished one shows milliseconds ("7.250 sec").
 */
export function formatDuration(ms: number, live: boolean, language: string): string {
  const parts = durationParts(ms);
  const values = [parts.years, parts.months, parts.days, parts.hours, parts.minutes];
  const shown = UNITS.flatMap((unit, index) => {
    const value = values[index] ?? 0;
    return value > 0
      ? [new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'short' }).format(value)]
      : [];
  });
  const seconds = new Intl.NumberFormat(language, {
    style: 'unit',
    unit: 'second',
    unitDisplay: 'short',
    minimumFractionDigits: live ? 0 : 3,
    maximumFractionDigits: live ? 0 : 3,
  }).format(live ? parts.seconds : parts.seconds + parts.milliseconds / 1000);
  shown.push(seconds);
  const text = new Intl.ListFormat(language, { style: 'narrow', type: 'unit' }).format(shown);
  return live ? `+${text}` : text;
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

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A size in the language's short units, 1024-based: "512 byte", "1.5 kB", "3.2 MB". */
export function formatBytes(bytes: number, language: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: BYTE_UNITS[unit] ?? 'byte',
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}
