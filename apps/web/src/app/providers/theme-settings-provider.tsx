import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRtlLanguage } from '../../lib/languages';
import { loadRtlCache, rtlCache } from '../../lib/rtl-cache';
import { createAppTheme, sidebarSurface } from '../theme/create-app-theme';
import type { ThemeSettings } from '../theme/theme-settings';
import { DEFAULT_THEME_SETTINGS, sanitizeSettings } from '../theme/theme-settings';
import { paintPageCanvas } from '../theme/page-canvas';
import { clearThemeSettings, openingThemeSettings, saveThemeSettings } from '../theme/theme-storage';
import { ThemeSettingsContext } from './theme-settings-context';

const ltrCache = createCache({ key: 'mui' });

/**
 * Holds the theme settings (saved in localStorage, spec §2.9) and applies them: MUI themes of the
 * content, sidebar and header, direction (Arabic or is_rtl) and the dir and lang attributes of <html>.
 */
export function ThemeSettingsProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const [settings, setSettings] = useState<ThemeSettings>(openingThemeSettings);
  const update = useCallback((patch: Partial<ThemeSettings>) => {
    setSettings((current) => {
      const next = sanitizeSettings({ ...current, ...patch });
      saveThemeSettings(next);
      return next;
    });
  }, []);
  const reset = useCallback(() => {
    clearThemeSettings();
    setSettings(DEFAULT_THEME_SETTINGS);
  }, []);
  const direction: 'ltr' | 'rtl' = (settings.rtl ?? isRtlLanguage(i18n.language)) ? 'rtl' : 'ltr';
  // The mirroring styles (lib/rtl-cache.ts), read at render: already loaded when the console opens
  // right to left or switches language; fetched on the spot (then a render) when the layout switch
  // turns right to left.
  const [, setRtlLoaded] = useState(false);
  useEffect(() => {
    if (direction === 'rtl' && !rtlCache())
      void loadRtlCache().then(
        () => setRtlLoaded(true),
        () => undefined,
      );
  }, [direction]);
  const mirrored = direction === 'rtl' ? rtlCache() : undefined;

  // Before the browser paints the new settings, so the canvas never shows the other mode.
  useLayoutEffect(() => paintPageCanvas(settings), [settings]);

  useEffect(() => {
    document.documentElement.dir = direction;
    document.documentElement.lang = i18n.language;
  }, [direction, i18n.language]);

  const theme = useMemo(() => createAppTheme(settings, direction), [settings, direction]);
  const darkTheme = useMemo(() => createAppTheme(settings, direction, 'dark'), [settings, direction]);
  const lightTheme = useMemo(() => createAppTheme(settings, direction, 'light'), [settings, direction]);
  const value = useMemo(
    () => ({
      settings,
      direction,
      sidebarTheme: sidebarSurface(settings) === 'dark' ? darkTheme : lightTheme,
      headerTheme: settings.headerType === 'dark' ? darkTheme : lightTheme,
      darkTheme,
      lightTheme,
      update,
      reset,
    }),
    [settings, direction, darkTheme, lightTheme, update, reset],
  );

  return (
    <ThemeSettingsContext.Provider value={value}>
      <CacheProvider value={mirrored ?? ltrCache}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          {children}
        </ThemeProvider>
      </CacheProvider>
    </ThemeSettingsContext.Provider>
  );
}
