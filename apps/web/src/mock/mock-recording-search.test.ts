import { routes } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { serveMockApi } from './test-client';

const { call, callOk } = serveMockApi();

describe('mock search across recordings', () => {
  it('answers sessions whose output contains the text, in the contract’s shape, newest first', async () => {
    const body = await callOk('searchRecordings', { query: { q: 'logout', limit: '5' } });
    const page = routes.searchRecordings.response.parse(body);
    expect(page.sessions.length).toBeGreaterThan(0);
    const starts = page.sessions.map((s) => s.recording.started_on);
    expect([...starts].sort().reverse()).toEqual(starts);
    for (const s of page.sessions)
      for (const h of s.hits) expect(h.snippet.slice(h.match_start, h.match_start + h.match_length)).toBe('logout');
  });

  it('refuses a text shorter than three characters', async () => {
    expect((await call('searchRecordings', { query: { q: 'ab' } })).status).toBe(400);
  });
});
