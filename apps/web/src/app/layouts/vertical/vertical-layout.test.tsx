// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../../lib/session';
import { PLAIN_USER, renderShell } from '../testing/render-shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  signOut();
  localStorage.clear();
});

const mainNav = () => screen.getByRole('navigation', { name: 'Main navigation' });
const header = () => screen.getByRole('banner');

describe('header-user layout (the default)', () => {
  it('shows the header with logo, language, Customize and the user menu, and the sidebar with navigation and info blocks', async () => {
    renderShell();
    expect(within(header()).getByRole('link', { name: 'Gatehouse home' })).toBeTruthy();
    expect(within(header()).getByRole('button', { name: 'Change language' })).toBeTruthy();
    expect(within(header()).getByRole('button', { name: 'Customize' })).toBeTruthy();
    expect(within(header()).getByRole('button', { name: 'Open user menu' }).textContent).toContain('Ada Lovelace');
    const links = within(mainNav()).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual([
      'My access',
      'Status',
      'Sessions',
      'Dashboard',
      'Groups',
      'Agents',
      'Roles',
      'Tunnels',
      'Users',
      'Keys',
      'Audit',
      'Settings',
    ]);
    expect(within(mainNav()).getByRole('link', { name: 'Sessions' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('current-view').textContent).toBe('Current view: Sessions');
    // The sidebar's info box, and the security configuration and metadata blocks, folded until asked for.
    expect(screen.getByRole('region', { name: 'Signed-in user' }).textContent).toContain('admin, auditor');
    const fold = screen.getByRole('button', { name: 'Security and server' });
    expect(fold.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'Security configuration' })).toBeNull();
    fireEvent.click(fold);
    expect(fold.getAttribute('aria-expanded')).toBe('true');
    expect(await screen.findByRole('region', { name: 'Security configuration' })).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Server' })).toBeTruthy();
    await waitFor(() =>
      expect(within(mainNav()).getByRole('link', { name: 'Sessions' }).textContent).toContain('1,234'),
    );
    // No menu button at lg and up: the sidebar is always there.
    expect(screen.queryByRole('button', { name: 'Open navigation' })).toBeNull();
  });

  it('keeps the security configuration from a plain user, who may not read it, and shows the server block', async () => {
    renderShell({ user: PLAIN_USER, path: '/users' });
    expect(screen.queryByRole('button', { name: 'Security and server' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Server' }));
    expect(await screen.findByRole('region', { name: 'Server' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Security configuration' })).toBeNull();
    expect(screen.getByTestId('sidebar-info-blocks').textContent).not.toContain('Per-request authorization');
  });

  it('remembers the unfolded box in this browser', async () => {
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Security and server' }));
    expect(await screen.findByRole('region', { name: 'Security configuration' })).toBeTruthy();
    cleanup();
    renderShell();
    expect(screen.getByRole('button', { name: 'Security and server' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('opens the user menu with My account, Change Password and Logout', () => {
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Open user menu' }));
    const menu = screen.getByRole('menu', { name: 'User menu' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['My account', 'Change Password', 'Logout']);
  });

  it('below lg puts the sidebar in a drawer that the menu button opens and any navigation closes', async () => {
    const { router } = renderShell({ width: 800 });
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    const menuButton = screen.getByRole('button', { name: 'Open navigation' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(within(mainNav()).getByRole('link', { name: 'Users' }));
    await screen.findByRole('heading', { name: 'Users screen' });
    expect(router.state.location.pathname).toBe('/users');
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull());
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('scrolls the content back to the top on a path change', async () => {
    const { router } = renderShell();
    const main = screen.getByRole('main');
    const scrollTo = vi.fn();
    main.scrollTo = scrollTo as typeof main.scrollTo;
    await act(() => router.navigate('/users'));
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
  });
});

describe('other vertical layouts', () => {
  it('standard: the user menu is the sidebar info box, not in the header', () => {
    renderShell({ settings: { navStyle: 'standard' } });
    expect(screen.getByTestId('shell-layout').getAttribute('data-layout')).toBe('standard');
    const userButton = screen.getByRole('button', { name: 'Open user menu' });
    expect(header().contains(userButton)).toBe(false);
    expect(screen.getByRole('complementary', { name: 'Sidebar' }).contains(userButton)).toBe(true);
    expect(userButton.textContent).toContain('admin, auditor');
    expect(screen.queryByTestId('sidebar-info-blocks')).toBeNull();
  });

  it('default: the sidebar runs the full height and the header sits beside it', () => {
    renderShell({ settings: { navStyle: 'default' } });
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    // The header is not above the sidebar: both share the row under the frame.
    expect(sidebar.compareDocumentPosition(header()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(mainNav()).toBeTruthy();
  });

  it('mini: the icon rail shows icons only and expands on hover and on keyboard focus', () => {
    renderShell({ settings: { navStyle: 'mini' } });
    const rail = screen.getByTestId('mini-rail');
    expect(rail.getAttribute('data-expanded')).toBe('false');
    // Collapsed: the links keep their names but show no text.
    expect(within(mainNav()).getByRole('link', { name: 'Users' }).textContent).toBe('');
    fireEvent.mouseEnter(rail);
    expect(rail.getAttribute('data-expanded')).toBe('true');
    expect(within(mainNav()).getByRole('link', { name: 'Users' }).textContent).toContain('Users');
    fireEvent.mouseLeave(rail);
    expect(rail.getAttribute('data-expanded')).toBe('false');
    fireEvent.focus(within(mainNav()).getByRole('link', { name: 'Groups' }));
    expect(rail.getAttribute('data-expanded')).toBe('true');
    fireEvent.blur(within(mainNav()).getByRole('link', { name: 'Groups' }), { relatedTarget: document.body });
    expect(rail.getAttribute('data-expanded')).toBe('false');
  });

  it('header-user-mini: the user menu is in the header and the sidebar is a hover rail', () => {
    renderShell({ settings: { navStyle: 'header-user-mini' } });
    expect(within(header()).getByRole('button', { name: 'Open user menu' })).toBeTruthy();
    expect(screen.getByTestId('mini-rail').getAttribute('data-expanded')).toBe('false');
  });

  it('mini-sidebar-toggle: the header button collapses the sidebar to a rail, and a path change expands it again', async () => {
    const { router } = renderShell({ settings: { navStyle: 'mini-sidebar-toggle' } });
    const rail = screen.getByTestId('sidebar-rail');
    expect(rail.getAttribute('data-collapsed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Collapse navigation' }));
    expect(rail.getAttribute('data-collapsed')).toBe('true');
    expect(within(mainNav()).getByRole('link', { name: 'Users' }).textContent).toBe('');
    const expand = screen.getByRole('button', { name: 'Expand navigation' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    await act(() => router.navigate('/users'));
    expect(screen.getByTestId('sidebar-rail').getAttribute('data-collapsed')).toBe('false');
  });

  it('drawer: the navigation is hidden at every width until the menu button opens it', async () => {
    renderShell({ settings: { navStyle: 'drawer' }, width: 1600 });
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open navigation' }));
    expect(within(mainNav()).getByRole('link', { name: 'Users' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Navigation' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull());
  });
});
