// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../lib/session';
import { THEME_SETTINGS_KEY } from '../theme/theme-storage';
import { renderShell } from './testing/render-shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  signOut();
  localStorage.clear();
});

describe('query settings (spec §2.4)', () => {
  it('applies nav_style, theme_mode, theme_style and is_rtl from the URL and keeps them', async () => {
    renderShell({ path: '/recordings?nav_style=mini&theme_mode=light&theme_style=modern&is_rtl=true' });
    expect(await screen.findByTestId('mini-rail')).toBeTruthy();
    expect(screen.getByTestId('shell-layout').getAttribute('data-layout')).toBe('mini');
    expect(document.documentElement.dir).toBe('rtl');
    expect(JSON.parse(localStorage.getItem(THEME_SETTINGS_KEY) ?? '{}')).toMatchObject({
      navStyle: 'mini',
      mode: 'light',
      themeStyle: 'modern',
      rtl: true,
    });
  });

  it('ignores values it does not know', () => {
    renderShell({ path: '/recordings?nav_style=sideways&theme_mode=pink' });
    expect(screen.getByTestId('shell-layout').getAttribute('data-layout')).toBe('header-user');
    expect(JSON.parse(localStorage.getItem(THEME_SETTINGS_KEY) ?? '{}')).toMatchObject({ mode: 'dark' });
  });
});
