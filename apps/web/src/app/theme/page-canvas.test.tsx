// @vitest-environment happy-dom
import { runInThisContext } from 'node:vm';
// public/page-canvas.js, the plain script that index.html runs in <head> before the first paint.
import HEAD_SCRIPT from '../../../public/page-canvas.js?raw';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../lib/i18n';
import { useThemeSettings } from '../providers/theme-settings-context';
import { ThemeSettingsProvider } from '../providers/theme-settings-provider';
import { CONTENT_BACKGROUND } from './create-app-theme';
import { paintPageCanvas } from './page-canvas';
import { DEFAULT_THEME_SETTINGS } from './theme-settings';
import { THEME_SETTINGS_KEY, openingThemeSettings } from './theme-storage';

/** The page's canvas colour as #rrggbb, whichever form the DOM gives it back in. */
function canvas(): string {
  const value = document.documentElement.style.backgroundColor;
  const rgb = value.match(/\d+/g);
  if (!value.startsWith('rgb') || !rgb) return value.toLowerCase();
  return `#${rgb
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;
}

function save(mode: 'dark' | 'light' | 'semi-dark'): void {
  localStorage.setItem(THEME_SETTINGS_KEY, JSON.stringify({ ...DEFAULT_THEME_SETTINGS, mode }));
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  document.documentElement.removeAttribute('style');
});

describe('the page canvas is in the console’s mode from the first paint', () => {
  it('paints the dark content background in dark mode, the light one in light and semi-dark', () => {
    paintPageCanvas({ ...DEFAULT_THEME_SETTINGS, mode: 'dark' });
    expect(canvas()).toBe(CONTENT_BACKGROUND.dark.default);
    expect(document.documentElement.style.colorScheme).toBe('dark');
    for (const mode of ['light', 'semi-dark'] as const) {
      paintPageCanvas({ ...DEFAULT_THEME_SETTINGS, mode });
      expect(canvas()).toBe(CONTENT_BACKGROUND.light.default);
      expect(document.documentElement.style.colorScheme).toBe('light');
    }
  });

  it('opens with the address’s query over the saved settings, the hash query winning', () => {
    save('dark');
    expect(openingThemeSettings().mode).toBe('dark');
    window.history.replaceState(null, '', '/?theme_mode=light#/recordings');
    expect(openingThemeSettings().mode).toBe('light');
    window.history.replaceState(null, '', '/?theme_mode=light#/recordings?theme_mode=semi-dark&is_rtl=true');
    expect(openingThemeSettings()).toMatchObject({ mode: 'semi-dark', rtl: true });
    window.history.replaceState(null, '', '/?theme_mode=pink#/recordings');
    expect(openingThemeSettings().mode).toBe('dark');
  });

  it('renders a ?theme_mode=light link light at once, and follows a mode changed later', () => {
    save('dark');
    window.history.replaceState(null, '', '/?theme_mode=light#/recordings');
    let update: ReturnType<typeof useThemeSettings>['update'] | undefined;
    function Probe() {
      const settings = useThemeSettings();
      update = settings.update;
      return <p data-mode={settings.settings.mode}>probe</p>;
    }
    const view = render(
      <ThemeSettingsProvider>
        <Probe />
      </ThemeSettingsProvider>,
    );
    expect(view.getByText('probe').dataset.mode).toBe('light');
    expect(canvas()).toBe(CONTENT_BACKGROUND.light.default);
    act(() => update?.({ mode: 'dark' }));
    expect(canvas()).toBe(CONTENT_BACKGROUND.dark.default);
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });

  it('the script in <head> paints what the console paints, for every saved value and address', () => {
    const saved = [null, 'dark', 'light', 'semi-dark', 'pink', '{not json', 'null', '"dark"', '[]'];
    const addresses = [
      '/',
      '/#/recordings',
      '/?theme_mode=light#/recordings',
      '/?theme_mode=semi-dark#/signin?theme_mode=dark',
      '/#/signin?nav_style=mini&theme_mode=light',
      '/?theme_mode=pink#/signin?theme_mode=',
    ];
    let compared = 0;
    for (const value of saved) {
      for (const address of addresses) {
        localStorage.clear();
        if (value !== null) {
          const raw = ['dark', 'light', 'semi-dark', 'pink'].includes(value)
            ? JSON.stringify({ ...DEFAULT_THEME_SETTINGS, mode: value })
            : value;
          localStorage.setItem(THEME_SETTINGS_KEY, raw);
        }
        window.history.replaceState(null, '', address);
        document.documentElement.removeAttribute('style');
        runInThisContext(HEAD_SCRIPT);
        const fromScript = [canvas(), document.documentElement.style.colorScheme];
        document.documentElement.removeAttribute('style');
        paintPageCanvas(openingThemeSettings());
        expect(fromScript, `saved ${String(value)} at ${address}`).toEqual([
          canvas(),
          document.documentElement.style.colorScheme,
        ]);
        compared += 1;
      }
    }
    expect(compared).toBe(saved.length * addresses.length);
  });
});
