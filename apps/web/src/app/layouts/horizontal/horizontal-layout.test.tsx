// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../../lib/session';
import { renderShell } from '../testing/render-shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  signOut();
  localStorage.clear();
});

const mainNav = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('horizontal layouts', () => {
  it('h-default: the navigation runs across the header under the logo and the System Manager subtitle', async () => {
    renderShell({ settings: { navStyle: 'h-default' } });
    const header = await screen.findByRole('banner');
    expect(within(header).getByTestId('header-subtitle').textContent).toBe('System Manager');
    expect(header.contains(mainNav())).toBe(true);
    expect(within(mainNav()).getAllByRole('link')).toHaveLength(12);
    expect(within(mainNav()).getByRole('link', { name: 'Sessions' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('shell-layout').querySelector('[data-nav-tone]')?.getAttribute('data-nav-tone')).toBe(
      'primary',
    );
    expect(within(header).getByRole('button', { name: 'Change language' })).toBeTruthy();
    expect(within(header).getByRole('button', { name: 'Customize' })).toBeTruthy();
    await waitFor(() => expect(within(mainNav()).getByRole('link', { name: 'Users' }).textContent).toContain('7'));
  });

  it('the header user menu offers My account, which opens the account screen', async () => {
    const { router } = renderShell({ settings: { navStyle: 'hor-light-nav' } });
    const header = await screen.findByRole('banner');
    expect(screen.getByTestId('shell-layout').querySelector('[data-nav-tone]')?.getAttribute('data-nav-tone')).toBe(
      'light',
    );
    fireEvent.click(within(header).getByRole('button', { name: 'Open user menu' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'My account' }));
    await screen.findByRole('heading', { name: 'Account screen' });
    expect(router.state.location.pathname).toBe('/account');
  });

  it('hor-dark-layout: the header is dark even when the header setting says light', async () => {
    renderShell({ settings: { navStyle: 'hor-dark-layout', headerType: 'light', mode: 'light' } });
    const header = await screen.findByRole('banner');
    const background = getComputedStyle(header).backgroundColor;
    // The dark frame's paper is the sidebar colour #313134.
    expect(background.replace(/\s/g, '')).toMatch(/rgb\(49,49,52\)|#313134/i);
  });

  it('below lg the navigation leaves the header for the drawer the menu button opens', async () => {
    renderShell({ settings: { navStyle: 'h-default' }, width: 900 });
    const open = await screen.findByRole('button', { name: 'Open navigation' });
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    fireEvent.click(open);
    expect(within(mainNav()).getAllByRole('link')).toHaveLength(12);
    expect(screen.getByRole('banner', { hidden: true }).contains(mainNav())).toBe(false);
  });
});
