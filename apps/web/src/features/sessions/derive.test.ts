import { describe, expect, it } from 'vitest';
import { setDateLocale } from '../../lib/dates';
import type { SessionRow } from './derive';
import { deriveSession, durationOf, durationParts, formatBytes, formatDuration, timeMs, withZone } from './derive';

const row = (patch: Partial<SessionRow> = {}): SessionRow => ({
  id: '7b0e4a52-25a8-4f43-9a53-0d3f1b4b2a11',
  host: { id: 'a4f0b8a2-3c1e-4b7a-9d7e-3a9b1c2d4e5f', hostname: 'web-01' },
  user: { email: 'vera@example.test' },
  started_on: '2026-03-01T10:00:00.000Z',
  ended_on: '2026-03-01T11:02:03.450Z',
  has_video: false,
  type: 'ssh',
  tunnel: 'web-01 shell',
  end_reason: 'client-closed',
  terminated_by: null,
  forwards: [],
  legal_hold: { held: false, by: null, at: null, reason: null },
  kind: 'shell',
  command: null,
  ...patch,
});

const SECOND = 1000;
const DAY = 86_400 * SECOND;

describe('withZone', () => {
  it('appends Z to a time without a zone, so it reads as UTC', () => {
    expect(withZone('2026-03-01T10:00:00')).toBe('2026-03-01T10:00:00Z');
    expect(timeMs('2026-03-01T10:00:00')).toBe(Date.UTC(2026, 2, 1, 10));
  });

  it('keeps a time that has a zone', () => {
    expect(withZone('2026-03-01T10:00:00Z')).toBe('2026-03-01T10:00:00Z');
    expect(withZone('2026-03-01T10:00:00+02:00')).toBe('2026-03-01T10:00:00+02:00');
    expect(timeMs('2026-03-01T12:00:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
  });
});

describe('deriveSession', () => {
  it('derives a finished SSH session: status, type, unix seconds, local times and duration', () => {
    setDateLocale('en');
    const view = deriveSession(row(), Date.UTC(2030, 0, 1));
    expect(view).toMatchObject({
      isLive: false,
      status: 'finished',
      sessionType: 'ssh',
      hostname: 'web-01',
      username: 'vera@example.test',
      tunnel: 'web-01 shell',
      startedOnX: Date.UTC(2026, 2, 1, 10) / 1000,
      endedOnX: Date.UTC(2026, 2, 1, 11, 2, 3) / 1000,
      duration: 3_723_450,
    });
    expect(view.formattedStartTime).toMatch(/^03\/01\/2026 \d{1,2}:\d{2} [AP]M$/);
  });

  it('derives a live session: no end, "-" as end time, duration up to now', () => {
    const now = Date.UTC(2026, 2, 1, 10, 0, 42);
    const view = deriveSession(row({ ended_on: null, end_reason: null }), now);
    expect(view).toMatchObject({ isLive: true, status: 'live', endedOnX: null, formattedEndTime: '-' });
    expect(view.duration).toBe(42_000);
  });

  it('calls a session with a video RDP, and keeps generic and agent types', () => {
    expect(deriveSession(row({ has_video: true, type: 'rdp' }), 0).sessionType).toBe('rdp');
    expect(deriveSession(row({ has_video: true, type: 'generic' }), 0).sessionType).toBe('rdp');
    expect(deriveSession(row({ type: 'generic' }), 0).sessionType).toBe('generic');
    expect(deriveSession(row({ type: 'agent' }), 0).sessionType).toBe('agent');
  });

  it('reads times without a zone as UTC', () => {
    const view = deriveSession(row({ started_on: '2026-03-01T10:00:00', ended_on: '2026-03-01T10:00:05' }), 0);
    expect(view.startedOnX).toBe(Date.UTC(2026, 2, 1, 10) / 1000);
    expect(view.duration).toBe(5000);
  });

  it('never counts a negative duration when the clock is behind the server', () => {
    expect(durationOf(row({ ended_on: null }), Date.UTC(2026, 2, 1, 9))).toBe(0);
  });
});

describe('durationParts', () => {
  it('splits into years, months of 30 days, days, hours, minutes, seconds and ms', () => {
    const ms = 365 * DAY + 2 * 30 * DAY + 3 * DAY + 4 * 3_600_000 + 5 * 60_000 + 6 * SECOND + 789;
    expect(durationParts(ms)).toEqual({
      years: 1,
      months: 2,
      days: 3,
      hours: 4,
      minutes: 5,
      seconds: 6,
      milliseconds: 789,
    });
  });
});

describe('formatDuration', () => {
  it('shows a finished session with milliseconds, leaving out zero parts', () => {
    expect(formatDuration(3_723_450, false, 'en')).toBe('1 hr 2 min 3.450 sec');
    expect(formatDuration(250, false, 'en')).toBe('0.250 sec');
  });

  it("prefixes a live session with '+' and counts whole seconds", () => {
    expect(formatDuration(2 * DAY + 5 * 60_000 + 7_900, true, 'en')).toBe('+2 days 5 min 7 sec');
    expect(formatDuration(0, true, 'en')).toBe('+0 sec');
  });

  it('shows years and months', () => {
    expect(formatDuration(365 * DAY + 30 * DAY, true, 'en')).toBe('+1 yr 1 mth 0 sec');
  });

  it('writes the units and decimal mark of the language', () => {
    // French separates number and unit with a narrow no-break space.
    expect(formatDuration(3_723_450, false, 'fr').replace(/\s/g, ' ')).toBe('1 h 2 min 3,450 s');
    expect(formatDuration(3_723_450, false, 'zh')).toBe('1小时2分钟3.450秒');
  });
});

describe('formatBytes', () => {
  it('uses 1024-based units with one decimal', () => {
    expect(formatBytes(512, 'en')).toBe('512 byte');
    expect(formatBytes(1536, 'en')).toBe('1.5 kB');
    expect(formatBytes(3 * 1024 * 1024, 'en')).toBe('3 MB');
  });
});
