// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../../lib/session';
import { renderShell } from '../testing/render-shell';
import { ROUTE_TRANSITION_MS } from './route-transition';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
  vi.unstubAllGlobals();
  signOut();
  localStorage.clear();
});

const phaseOf = (heading: string) =>
  screen.getByRole('heading', { name: heading }).closest('[data-phase]')?.getAttribute('data-phase');

describe('route transitions (spec §2.9)', () => {
  it('with fade, the old screen plays its exit for 300 ms, then the new one enters', async () => {
    const { router } = renderShell({ settings: { routeTransition: 'fade' } });
    expect(phaseOf('Sessions screen')).toBe('enter');
    expect(
      screen
        .getByRole('heading', { name: 'Sessions screen' })
        .closest('[data-route-transition]')
        ?.getAttribute('data-route-transition'),
    ).toBe('fade');
    vi.useFakeTimers();
    await act(() => router.navigate('/users'));
    expect(phaseOf('Sessions screen')).toBe('exit');
    expect(screen.queryByRole('heading', { name: 'Users screen' })).toBeNull();
    act(() => {
      vi.advanceTimersByTime(ROUTE_TRANSITION_MS - 10);
    });
    expect(screen.queryByRole('heading', { name: 'Users screen' })).toBeNull();
    act(() => {
      vi.advanceTimersByTime(10);
    });
    expect(phaseOf('Users screen')).toBe('enter');
    expect(screen.queryByRole('heading', { name: 'Sessions screen' })).toBeNull();
  });

  it('with none, the new screen shows at once without an animation wrapper', async () => {
    const { router } = renderShell({ settings: { routeTransition: 'none' } });
    await act(() => router.navigate('/users'));
    expect(screen.getByRole('heading', { name: 'Users screen' }).closest('[data-phase]')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Sessions screen' })).toBeNull();
  });

  it('names each slide in the wrapper it animates', () => {
    renderShell({ settings: { routeTransition: 'slideLeft' } });
    expect(
      screen
        .getByRole('heading', { name: 'Sessions screen' })
        .closest('[data-route-transition]')
        ?.getAttribute('data-route-transition'),
    ).toBe('slideLeft');
  });
});
