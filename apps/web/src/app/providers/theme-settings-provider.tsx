import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import { isRtlLanguage } from '../../lib/languages';
import { createAppTheme, sidebarSurface } from '../theme/create-app-theme';
import type { ThemeSettings } from '../theme/theme-settings';
import { DEFAULT_THEME_SETTINGS, sanitizeSettings } from '../theme/theme-settings';
import { clearThemeSettings, loadThemeSettings, saveThemeSettings } from '../theme/theme-storage';
import { ThemeSettingsContext } from './theme-settings-context';

// Right to left, every style MUI and the console write is mirrored by the stylis RTL plugin
// (margins, paddings, positions, borders), as MUI's RTL guide prescribes.
const caches = {
  ltr: createCache({ key: 'mui' }),
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
};

/**
 * Holds the theme settings (saved in localStorage, spec §2.9) and applies them: MUI themes of the
 * content, sidebar and header, direction (Arabic or is_rtl) and the dir and lang attributes of <html>.
 */
export function ThemeSettingsProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const [settings, setSettings] = useState<ThemeSettings>(loadThemeSettings);
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
      <CacheProvider value={caches[direction]}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          {children}
        </ThemeProvider>
      </CacheProvider>
    </ThemeSettingsContext.Provider>
  );
}
