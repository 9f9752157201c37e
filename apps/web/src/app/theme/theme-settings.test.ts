import { describe, expect, it } from 'vitest';
import { COLOR_PRESETS, matchingPreset } from './color-presets';
import { getContrastRatio } from '@mui/material/styles';
import { STATUS_COLOURS, readableOnDark, readableOnLight, withWhiteText } from './contrast';
import { createAppTheme, sidebarSurface } from './create-app-theme';
import { DEFAULT_THEME_SETTINGS, sanitizeSettings, settingsFromAddress, settingsFromQuery } from './theme-settings';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

describe('theme settings (spec §2.9)', () => {
  it('defaults to header-user, dark, standard, full width, fluid footer, #0078D7 and #2098F7', () => {
    expect(DEFAULT_THEME_SETTINGS).toMatchObject({
      navStyle: 'header-user',
      mode: 'dark',
      themeStyle: 'standard',
      layoutType: 'full-width',
      footerType: 'fluid',
      primary: '#0078D7',
      secondary: '#2098F7',
      sidebarBackground: '#313134',
      routeTransition: 'none',
      rtl: null,
    });
  });

  it('has twelve distinct presets, the default first, each keeping white text readable (4.5:1)', () => {
    expect(COLOR_PRESETS).toHaveLength(12);
    expect(COLOR_PRESETS[0]).toMatchObject({ primary: '#0078D7', secondary: '#2098F7' });
    expect(new Set(COLOR_PRESETS.map((preset) => preset.primary.toLowerCase())).size).toBe(12);
    expect(new Set(COLOR_PRESETS.map((preset) => preset.id)).size).toBe(12);
    // The spec's own default, #0078D7, reaches 4.499:1; the eleven designed here reach 4.5 or more.
    expect(contrastWithWhite(COLOR_PRESETS[0]!.primary)).toBeCloseTo(4.5, 2);
    for (const preset of COLOR_PRESETS.slice(1)) expect(contrastWithWhite(preset.primary)).toBeGreaterThanOrEqual(4.5);
    expect(matchingPreset('#0078d7', '#2098f7')?.id).toBe('azure');
    expect(matchingPreset('#0078D7', '#000000')).toBeUndefined();
  });

  it('keeps the valid fields of a saved entry and replaces the rest with defaults', () => {
    expect(
      sanitizeSettings({
        mode: 'light',
        navStyle: 'nope',
        primary: '#12345',
        secondary: '#abcdef',
        footer: 'yes',
        rtl: true,
      }),
    ).toEqual({ ...DEFAULT_THEME_SETTINGS, mode: 'light', secondary: '#abcdef', rtl: true });
    expect(sanitizeSettings('garbage')).toEqual(DEFAULT_THEME_SETTINGS);
    expect(sanitizeSettings(null)).toEqual(DEFAULT_THEME_SETTINGS);
  });

  it('reads theme_mode, is_rtl, nav_style and theme_style from a query, ignoring unknown values', () => {
    expect(
      settingsFromQuery(
        new URLSearchParams('theme_mode=semi-dark&is_rtl=true&nav_style=bit-bucket&theme_style=modern'),
      ),
    ).toEqual({ mode: 'semi-dark', rtl: true, navStyle: 'bit-bucket', themeStyle: 'modern' });
    expect(settingsFromQuery(new URLSearchParams('theme_mode=purple&is_rtl=maybe&nav_style=x'))).toEqual({});
    expect(settingsFromQuery(new URLSearchParams('is_rtl=false'))).toEqual({ rtl: false });
  });

  it('reads an address’s page query and hash query, the hash query winning where both name a setting', () => {
    expect(settingsFromAddress('?theme_mode=light&nav_style=mini', '#/recordings?theme_mode=semi-dark')).toEqual({
      mode: 'semi-dark',
      navStyle: 'mini',
    });
    expect(settingsFromAddress('', '#/recordings')).toEqual({});
    expect(settingsFromAddress('?is_rtl=true', '')).toEqual({ rtl: true });
  });
});

describe('themes of the surfaces', () => {
  it('semi-dark keeps the content light under a dark sidebar; light makes the sidebar light too', () => {
    const semi = { ...DEFAULT_THEME_SETTINGS, mode: 'semi-dark' as const };
    expect(createAppTheme(semi, 'ltr').palette.mode).toBe('light');
    expect(sidebarSurface(semi)).toBe('dark');
    expect(createAppTheme(semi, 'ltr', 'dark').palette.background.paper).toBe('#313134');
    expect(sidebarSurface({ ...DEFAULT_THEME_SETTINGS, mode: 'light' })).toBe('light');
    expect(createAppTheme(DEFAULT_THEME_SETTINGS, 'ltr').palette.mode).toBe('dark');
  });

  it('uses radius 4 for standard and 30 for modern, with the chosen colours and direction', () => {
    const standard = createAppTheme(DEFAULT_THEME_SETTINGS, 'ltr');
    expect(standard.shape.borderRadius).toBe(4);
    const modern = createAppTheme(
      { ...DEFAULT_THEME_SETTINGS, themeStyle: 'modern', primary: '#00796B', secondary: '#26A69A' },
      'rtl',
    );
    expect(modern.shape.borderRadius).toBe(30);
    expect(modern.palette.primary.main).toBe('#00796B');
    expect(modern.palette.secondary.main).toBe('#26A69A');
    expect(modern.direction).toBe('rtl');
  });
});

describe('contrast of the themes (WCAG AA)', () => {
  it('keeps white text readable on every preset primary in light and dark, changing it as little as needed', () => {
    for (const preset of COLOR_PRESETS) {
      for (const mode of ['light', 'dark'] as const) {
        const theme = createAppTheme({ ...DEFAULT_THEME_SETTINGS, mode, primary: preset.primary }, 'ltr');
        expect(getContrastRatio(theme.palette.primary.contrastText, theme.palette.primary.main)).toBeGreaterThanOrEqual(
          4.5,
        );
        // Light mode: the main shade is also text on the light page, so it reads there too.
        if (mode === 'dark') expect(theme.palette.primary.main).toBe(withWhiteText(preset.primary));
        else {
          expect(theme.palette.primary.main).toBe(readableOnLight(withWhiteText(preset.primary), '#f4f6fb'));
          expect(getContrastRatio(theme.palette.primary.main, theme.palette.background.default)).toBeGreaterThanOrEqual(
            4.5,
          );
        }
      }
    }
    // Already readable: unchanged. The spec's #0078D7 sits on the line and is darkened by a hair.
    expect(withWhiteText('#3F51B5')).toBe('#3F51B5');
    expect(withWhiteText('#0078D7')).not.toBe('#0078D7');
    expect(getContrastRatio(withWhiteText('#0078D7'), '#0078D7')).toBeLessThan(1.05);
    // Too light for white text: MUI writes black on it, so it stays.
    expect(withWhiteText('#FFEB3B')).toBe('#FFEB3B');
  });

  it('lightens primary text on dark surfaces to read on the paper and on a selected tint', () => {
    for (const preset of COLOR_PRESETS) {
      const theme = createAppTheme({ ...DEFAULT_THEME_SETTINGS, primary: preset.primary }, 'ltr');
      expect(getContrastRatio(theme.palette.primary.light, theme.palette.background.paper)).toBeGreaterThanOrEqual(4.5);
    }
    expect(readableOnDark('#ffffff', '#000000')).toBe('#ffffff');
  });

  it('uses status colours that read as text on their backgrounds', () => {
    for (const colour of Object.values(STATUS_COLOURS.light)) {
      expect(getContrastRatio(colour, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(getContrastRatio(colour, '#f5f5f5')).toBeGreaterThanOrEqual(4.5);
    }
    for (const colour of Object.values(STATUS_COLOURS.dark)) {
      expect(getContrastRatio(colour, '#242429')).toBeGreaterThanOrEqual(4.5);
      expect(getContrastRatio(colour, DEFAULT_THEME_SETTINGS.sidebarBackground)).toBeGreaterThanOrEqual(4.5);
    }
    expect(createAppTheme({ ...DEFAULT_THEME_SETTINGS, mode: 'light' }, 'ltr').palette.warning.main).toBe(
      STATUS_COLOURS.light.warning,
    );
  });
});
