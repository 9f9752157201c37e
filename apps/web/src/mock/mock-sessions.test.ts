import { describe, expect, it } from 'vitest';
import { TEST_BASE, serveMockApi } from './test-client';
import { mockToken } from './http';

const { api, call, callOk } = serveMockApi();

type Page = {
  recordings: { id: string; started_on: string; ended_on: string | null; type: string; host: { hostname: string } }[];
  next_cursor: string | null;
  total?: number;
};

describe('mock session list', () => {
  it('pages with the keyset cursor through every session, newest first, without repeats', async () => {
    const seen: Page['recordings'] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { limit: '120', ...(cursor ? { cursor } : {}) };
      const page = (await callOk('listRecordings', { query })) as Page;
      seen.push(...page.recordings);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(api.state.recordings.length);
    expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
    const starts = seen.map((r) => r.started_on);
    expect(starts).toEqual([...starts].sort().reverse());
  });

  it('filters by type, live and text, and counts the matches when asked', async () => {
    const rdp = (await callOk('listRecordings', { query: { type: 'rdp', with_total: 'true', limit: '10' } })) as Page;
    expect(rdp.recordings.every((r) => r.type === 'rdp')).toBe(true);
    expect(rdp.total).toBe(api.state.recordings.filter((r) => r.type === 'rdp').length);
    const live = (await callOk('listRecordings', { query: { live: 'true' } })) as Page;
    expect(live.recordings.length).toBeGreaterThan(0);
    expect(live.recordings.every((r) => r.ended_on === null)).toBe(true);
    const db = (await callOk('listRecordings', { query: { q: 'DB-01' } })) as Page;
    expect(db.recordings.length).toBeGreaterThan(0);
    expect(db.recordings.every((r) => r.host.hostname.includes('db-01'))).toBe(true);
    const long = (await callOk('listRecordings', { query: { live: 'true', min_duration: '86400' } })) as Page;
    expect(long.recordings).toHaveLength(2);
  });

  it('sorts by hostname ascending when asked', async () => {
    const page = (await callOk('listRecordings', { query: { sort: 'hostname', order: 'asc', limit: '500' } })) as Page;
    const names = page.recordings.map((r) => r.host.hostname);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('terminates a live session once', async () => {
    const live = api.state.recordings.find((r) => r.ended_on === null && r.type === 'ssh');
    const id = live?.id ?? '';
    await callOk('terminateTunnel', { params: { id } });
    const detail = (await callOk('getRecordingDetail', { params: { id } })) as { end_reason: string; ended_on: string };
    expect(detail.end_reason).toBe('terminated');
    expect((await call('terminateTunnel', { params: { id } })).status).toBe(409);
  });
});

describe('mock recording files', () => {
  const recording = () => api.state.recordings.find((r) => r.type === 'ssh' && r.ended_on !== null);

  it('answers an asciicast v2 file whole, or the byte range asked for', async () => {
    const id = recording()?.id ?? '';
    const whole = await call('getRecordingCast', { params: { id } });
    expect(whole.status).toBe(200);
    expect(whole.response.headers.get('content-type')).toBe('application/x-asciicast');
    const text = await whole.response.text();
    const [header, ...events] = text.trimEnd().split('\n');
    expect(JSON.parse(header ?? '{}')).toMatchObject({ version: 2, width: recording()?.width });
    for (const line of events) expect(JSON.parse(line)).toEqual([expect.any(Number), 'o', expect.any(String)]);
    const part = await call('getRecordingCast', { params: { id }, headers: { Range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.response.headers.get('content-range')).toBe(`bytes 10-29/${new TextEncoder().encode(text).length}`);
    expect(new Uint8Array(await part.response.arrayBuffer())).toEqual(new TextEncoder().encode(text).slice(10, 30));
    const past = await call('getRecordingCast', { params: { id }, headers: { Range: 'bytes=999999-' } });
    expect(past.status).toBe(416);
  });

  it('lets a media ticket stand in for the token', async () => {
    const id = recording()?.id ?? '';
    const url = new URL(`api/recording/${id}/cast`, TEST_BASE);
    expect((await fetch(url)).status).toBe(401);
    url.searchParams.set('ticket', mockToken('alice.martin@acme.example', 'ticket'));
    expect((await fetch(url)).status).toBe(200);
  });

  it('seeks to an event offset and finds text in the output', async () => {
    const id = recording()?.id ?? '';
    const end = (await callOk('seekRecording', { params: { id }, query: { t: '99999' } })) as {
      offset: number;
      size: number;
      duration: number;
      events_start: number;
    };
    expect(end.offset).toBe(end.size);
    expect(end.duration).toBeGreaterThan(1);
    const start = (await callOk('seekRecording', { params: { id }, query: { t: '0' } })) as { offset: number };
    expect(start.offset).toBe(end.events_start);
    const found = (await callOk('searchRecording', { params: { id }, query: { q: 'logout' } })) as {
      hits: { excerpt: string }[];
    };
    expect(found.hits[0]?.excerpt).toContain('logout');
    const integrity = (await callOk('verifyRecording', { params: { id } })) as { status: string };
    expect(['intact', 'unsigned']).toContain(integrity.status);
  });

  it('has no video: RDP playback is reported unavailable', async () => {
    const rdp = api.state.recordings.find((r) => r.type === 'rdp');
    const available = (await callOk('playbackAvailable', { params: { id: rdp?.id ?? '' } })) as { available: boolean };
    expect(available.available).toBe(false);
    expect((await call('getRecordingVideo', { params: { id: rdp?.id ?? '' } })).status).toBe(404);
  });
});

describe('mock dashboard', () => {
  it('buckets the sessions it lists: 24 hours, 7 and 30 days, live counts', async () => {
    const dashboard = (await callOk('getDashboard')) as {
      recordings: Record<string, unknown> & {
        past24Hours: unknown[];
        pastWeek: unknown[];
        pastMonth: { sessions: number }[];
        totalAll: number;
        live: number;
        totalPastMonth: number;
      };
      agents_dashboard: { connected: number; total: number; days: unknown[] };
    };
    const { recordings } = dashboard;
    expect(recordings.past24Hours).toHaveLength(24);
    expect(recordings.pastWeek).toHaveLength(7);
    expect(recordings.pastMonth).toHaveLength(30);
    expect(recordings.totalAll).toBe(api.state.recordings.length);
    expect(recordings.totalPastMonth).toBe(recordings.pastMonth.reduce((sum, b) => sum + b.sessions, 0));
    expect(recordings.totalPastMonth).toBeGreaterThan(450);
    expect(dashboard.agents_dashboard).toMatchObject({ total: api.state.agents.length, connected: 20 });
    expect(dashboard.agents_dashboard.days.length).toBeGreaterThanOrEqual(30);
  });
});
