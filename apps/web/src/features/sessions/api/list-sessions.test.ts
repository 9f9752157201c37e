import { describe, expect, it } from 'vitest';
import { readFilters } from '../components/use-session-filters';
import type { SessionListParams } from './list-sessions';
import { DEFAULT_FILTERS, listQuery } from './list-sessions';

const now = new Date('2026-05-20T15:30:00.000Z');
const page = (patch: Partial<SessionListParams> = {}): SessionListParams => ({
  ...DEFAULT_FILTERS,
  pageSize: 25,
  sort: 'started_on',
  order: 'desc',
  cursor: undefined,
  ...patch,
});

describe('listQuery', () => {
  it('asks for the first page of the spec’s window, newest first, without filters', () => {
    expect(listQuery(page(), now)).toEqual({
      start: '2020-01-01T00:00:00.000Z',
      end: now.toISOString(),
      limit: '25',
      cursor: undefined,
      sort: 'started_on',
      order: 'desc',
      type: undefined,
      live: undefined,
      min_duration: undefined,
      tunnel: undefined,
      q: undefined,
    });
  });

  it('sends the cursor, the order, type, live, tunnel and a trimmed search', () => {
    const query = listQuery(
      page({ cursor: 'abc', sort: 'hostname', order: 'asc', type: 'rdp', live: 'finished', tunnel: 'db', q: ' web ' }),
      now,
    );
    expect(query).toMatchObject({
      cursor: 'abc',
      sort: 'hostname',
      order: 'asc',
      type: 'rdp',
      live: 'false',
      tunnel: 'db',
      q: 'web',
    });
  });

  it('makes LongRunning ask for live sessions of 24 hours or more, whatever the live filter says', () => {
    expect(listQuery(page({ time: 'LongRunning', live: 'finished' }), now)).toMatchObject({
      start: '2001-01-01T00:00:00.000Z',
      live: 'true',
      min_duration: '86400',
    });
  });

  it('sends nothing for the tunnel filter’s default, all', () => {
    expect(listQuery(page({ tunnel: 'all' }), now).tunnel).toBeUndefined();
  });
});

describe('readFilters', () => {
  it('reads the legal-hold filter from the URL and sends hold=true or hold=false, never an unknown value', () => {
    expect(readFilters(new URLSearchParams('hold=held')).hold).toBe('held');
    expect(readFilters(new URLSearchParams('hold=not-held')).hold).toBe('not-held');
    expect(readFilters(new URLSearchParams('hold=true')).hold).toBe('any');
    expect(listQuery(page({ hold: 'held' }), now).hold).toBe('true');
    expect(listQuery(page({ hold: 'not-held' }), now).hold).toBe('false');
    expect(listQuery(page(), now).hold).toBeUndefined();
  });

  it('reads the session kind from the URL and sends it to the server, never an unknown one', () => {
    expect(readFilters(new URLSearchParams('kind=scp')).kind).toBe('scp');
    expect(readFilters(new URLSearchParams('kind=telnet')).kind).toBe('any');
    expect(listQuery(page({ kind: 'sftp' }), now).kind).toBe('sftp');
    expect(listQuery(page(), now).kind).toBeUndefined();
  });

  it('reads the filters and order from the URL and ignores values it does not know', () => {
    expect(
      readFilters(new URLSearchParams('time=PastWeek&type=agent&live=live&tunnel=db&q=web&sort=user&order=asc')),
    ).toEqual({
      time: 'PastWeek',
      type: 'agent',
      kind: 'any',
      live: 'live',
      hold: 'any',
      tunnel: 'db',
      q: 'web',
      sort: 'user',
      order: 'asc',
    });
    expect(readFilters(new URLSearchParams('time=Soon&type=telnet&live=maybe&sort=duration&order=up'))).toEqual({
      ...DEFAULT_FILTERS,
      sort: 'started_on',
      order: 'desc',
    });
  });
});
