// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { SearchPage, SearchSession } from '../api/search-recordings';
import { RecordingSearchPage, playerAt } from './recording-search-page';
import { SearchResults, clock } from './search-results';

const session = (id: string, host: string, hits: SearchSession['hits'], hitCount = hits.length): SearchSession => ({
  recording: {
    id,
    host: { id: 'agent-1', hostname: host },
    user: { email: 'alice@example.test' },
    started_on: '2026-11-20T10:00:00Z',
    ended_on: '2026-11-20T10:05:00Z',
    has_video: false,
    type: 'ssh',
    tunnel: `${host} shell`,
    end_reason: 'client-closed',
    terminated_by: null,
    forwards: [],
    kind: 'shell',
    command: null,
    legal_hold: { held: false, by: null, at: null, reason: null },
  },
  hits,
  hit_count: hitCount,
  truncated: false,
});
const hit = (t: number, kind: SearchSession['hits'][number]['kind'], snippet: string, q: string) => ({
  t,
  kind,
  snippet,
  match_start: snippet.toLowerCase().indexOf(q.toLowerCase()),
  match_length: q.length,
  clipped_start: false,
  clipped_end: false,
});

/** Where the page navigated to (the player's route). */
function Location() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

function renderPage(url: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/recordings/search" element={<RecordingSearchPage />} />
        <Route path="*" element={<Location />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('search results', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('marks the match inside each snippet as text, shows the kind and opens the player at the hit', () => {
    const onOpen = vi.fn();
    renderWithProviders(
      <SearchResults
        sessions={[
          session('r1', 'web-01', [
            hit(65.4, 'output', '$ <b>rm -rf</b> /tmp/build', 'rm -rf'),
            hit(3, 'file', '/srv/backup.sql', 'backup'),
          ]),
        ]}
        onOpen={onOpen}
      />,
    );
    const marks = document.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['rm -rf', 'backup']);
    // Markup in a snippet stays text.
    expect(document.querySelector('b')).toBeNull();
    expect(screen.getByText('Output')).toBeTruthy();
    expect(screen.getByText('File')).toBeTruthy();
    expect(screen.getByTestId('hit-count').textContent).toBe('Matching lines: 2');
    fireEvent.click(screen.getByRole('button', { name: 'Open the session on web-01 at 1:05' }));
    expect(onOpen).toHaveBeenCalledWith('r1', 65.4);
  });

  it('formats times as a clock and links just after the hit', () => {
    expect(clock(5.2)).toBe('0:05');
    expect(clock(3725)).toBe('1:02:05');
    expect(playerAt('r1', 65.42)).toBe('/recordings/r1?view=replay&t=65.5');
  });
});

describe('search recordings page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('invites a search before any text is typed', () => {
    const seen = fakeServer({});
    renderPage('/recordings/search');
    expect(screen.getByText('Search every recording')).toBeTruthy();
    expect(seen).toEqual([]);
  });

  it('searches the text of the URL, lists sessions, and choosing a hit opens the player at its moment', async () => {
    const answer: SearchPage = {
      sessions: [session('r1', 'web-01', [hit(12, 'command', 'cat /etc/shadow', '/etc/shadow')])],
      next_cursor: null,
    };
    const seen = fakeServer({ 'GET api/recording/search': [200, answer] });
    renderPage('/recordings/search?q=%2Fetc%2Fshadow&kind=command');
    expect(await screen.findByText('web-01')).toBeTruthy();
    const results = screen.getByTestId('search-results');
    expect(seen[0]?.url).toBe('api/recording/search?q=%2Fetc%2Fshadow&kind=command&limit=20');
    expect(screen.getByRole('button', { name: 'Command' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(results).getByRole('button', { name: /Open the session on web-01/ }));
    expect(screen.getByTestId('location').textContent).toBe('/recordings/r1?view=replay&t=12.1');
  });

  it('says so when nothing matches, and Enter in the field searches at once', async () => {
    const seen = fakeServer({ 'GET api/recording/search': [200, { sessions: [], next_cursor: null }] });
    renderPage('/recordings/search');
    const field = screen.getByRole('textbox', { name: 'Text to find' });
    fireEvent.change(field, { target: { value: 'backup.sql' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText('No session contains “backup.sql”')).toBeTruthy();
    expect(seen[0]?.url).toContain('q=backup.sql');
  });

  it('shows the server’s reason when the search fails, with Try again', async () => {
    fakeServer({ 'GET api/recording/search': [400, { message: 'q is at most 200 characters' }] });
    renderPage('/recordings/search?q=xxx');
    expect(await screen.findByText(/q is at most 200 characters/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('asks for the next page with the cursor it was given', async () => {
    const first: SearchPage = {
      sessions: [session('r1', 'web-01', [hit(1, 'output', 'rm -rf', 'rm')])],
      next_cursor: 'c1',
    };
    const seen = fakeServer({ 'GET api/recording/search': [200, first] });
    renderPage('/recordings/search?q=rm -rf');
    fireEvent.click(await screen.findByRole('button', { name: 'Show more sessions' }));
    await vi.waitFor(() => expect(seen.at(-1)?.url).toContain('cursor=c1'));
  });
});
