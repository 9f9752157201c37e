// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useAuditFilters } from './use-audit-filters';

const wrapper = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/audit?order=asc']}>{children}</MemoryRouter>
);

describe('the audit filters in the URL', () => {
  it('keeps every change made before the screen renders again (typed text settling as a menu choice is made)', () => {
    const { result } = renderHook(() => ({ ...useAuditFilters(), location: useLocation() }), { wrapper });
    act(() => {
      result.current.change({ actor: 'admin@e2e' });
      result.current.change({ action: 'auth.login' });
      result.current.change({ outcome: 'success' });
    });
    expect(result.current.filters).toMatchObject({
      actor: 'admin@e2e',
      action: 'auth.login',
      outcome: 'success',
      order: 'asc',
    });
    act(() => result.current.change({ actor: '' }));
    expect(result.current.location.search).toBe('?order=asc&action=auth.login&outcome=success');
  });
});
