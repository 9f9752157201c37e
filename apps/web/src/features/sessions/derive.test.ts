import { describe, expect, it } from 'vitest';
import { setDateLocale } from '../../lib/dates';
import type { SessionRow } from './derive';
import { deriveSession, durationOf, timeMs, withZone } from './derive';

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
