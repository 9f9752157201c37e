// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useSessionFilters } from './use-session-filters';

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/recordings?order=asc']}>{children}</MemoryRouter>
);

describe('the session filters in the URL', () => {
  it('keeps every change made before the screen renders again (typed text settling as a menu choice is made)', () => {
    const { result } = renderHook(() => ({ ...useSessionFilters(), location: useLocation() }), { wrapper });
    act(() => {
      result.current.change({ q: 'web-01' });
      result.current.change({ live: 'live' });
      result.current.change({ type: 'ssh' });
    });
    expect(result.current.filters).toMatchObject({ q: 'web-01', live: 'live', type: 'ssh', order: 'asc' });
    expect(result.current.filtered).toBe(true);
    act(() => result.current.change({ q: '' }));
    expect(result.current.location.search).toBe('?order=asc&live=live&type=ssh');
    act(() => result.current.clear());
    expect(result.current.location.search).toBe('');
    expect(result.current.filtered).toBe(false);
  });
});
