import { describe, expect, it } from 'vitest';
import { canWatch } from '../sessions/components/session-columns';
import type { SessionRow } from '../sessions/derive';
import { desktopFeature, desktopPath, watchDesktopPath } from './feature';

const row = (patch: Partial<SessionRow>): SessionRow => ({
  id: 'c0ffee00-0000-4000-8000-000000000001',
  host: { id: null, hostname: 'win-01' },
  user: { email: 'ada@example.test' },
  started_on: '2026-01-01T00:00:00.000Z',
  ended_on: null,
  has_video: false,
  type: 'rdp',
  tunnel: 'Finance desktop',
  end_reason: null,
  terminated_by: null,
  forwards: [],
  legal_hold: { held: false, by: null, at: null, reason: null },
  kind: null,
  command: null,
  ...patch,
});

describe('desktop entry points', () => {
  it('routes an rdp definition’s desktop and a live desktop to watch', () => {
    expect(desktopPath('d1')).toBe('/desktop/d1');
    expect(watchDesktopPath('r1')).toBe('/desktop/watch/r1');
    expect(desktopFeature.routes.map((route) => route.path)).toEqual([
      'desktop/:definitionId',
      'desktop/watch/:recordingId',
    ]);
  });

  it('offers Watch live for a live browser desktop as for live SSH, never for ended sessions', () => {
    expect(canWatch(row({ kind: 'desktop' }))).toBe(true);
    expect(canWatch(row({ type: 'ssh', kind: 'shell' }))).toBe(true);
    expect(canWatch(row({ kind: 'desktop', ended_on: '2026-01-01T01:00:00.000Z' }))).toBe(false);
    expect(canWatch(row({ type: 'generic' }))).toBe(false);
  });

  it('offers no Watch live for a native RDP client through a tunnel: the gateway has no picture of it', () => {
    expect(canWatch(row({}))).toBe(false);
    expect(canWatch(row({ type: 'agent', has_video: true }))).toBe(false);
  });
});
