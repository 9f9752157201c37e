// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../../lib/session';
import { renderShell } from '../testing/render-shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  signOut();
  localStorage.clear();
});

describe('bit-bucket layout', () => {
  it('has a mini icon bar as its header and a sidebar with the navigation that the bar collapses', async () => {
    const { router } = renderShell({ settings: { navStyle: 'bit-bucket' } });
    const bar = await screen.findByTestId('bit-bucket-icon-bar');
    expect(screen.getByRole('banner')).toBe(bar);
    expect(within(bar).getByRole('link', { name: 'Gatehouse home' })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Change language' })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Customize' })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Open user menu' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(bar.contains(nav)).toBe(false);
    expect(within(nav).getAllByRole('link')).toHaveLength(12);

    const collapse = within(bar).getByRole('button', { name: 'Collapse navigation' });
    expect(collapse.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(collapse);
    const expand = within(bar).getByRole('button', { name: 'Expand navigation' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('bit-bucket-sidebar').className).not.toContain('MuiCollapse-entered');

    // Spec §2.3: back to not collapsed on a location change.
    await act(() => router.navigate('/users'));
    expect(within(bar).getByRole('button', { name: 'Collapse navigation' })).toBeTruthy();
  });

  it('below lg shows the common header and the navigation drawer', async () => {
    renderShell({ settings: { navStyle: 'bit-bucket' }, width: 700 });
    fireEvent.click(await screen.findByRole('button', { name: 'Open navigation' }));
    expect(screen.queryByTestId('bit-bucket-icon-bar')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
  });
});
