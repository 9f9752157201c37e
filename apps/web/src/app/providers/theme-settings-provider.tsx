import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRtlLanguage } from '../../lib/languages';
import { createAppTheme } from '../theme/create-app-theme';
import type { ThemeSettings } from '../theme/theme-settings';
import { DEFAULT_THEME_SETTINGS } from '../theme/theme-settings';
import { ThemeSettingsContext } from './theme-settings-context';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';

// Right to left, every style MUI and the console write is mirrored by the stylis RTL plugin
// (margins, paddings, positions, borders), as MUI's RTL guide prescribes.
const caches = {
  ltr: createCache({ key: 'mui' }),
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
};

/**
 * Holds the theme settings and applies them: MUI theme, direction (Arabic or is_rtl) and the
 * dir and lang attributes of <html>.
 */
export function ThemeSettingsProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const [settings, setSettings] = useState<ThemeSettings>(DEFAULT_THEME_SETTINGS);
  const update = useCallback(
    (patch: Partial<ThemeSettings>) => setSettings((current) => ({ ...current, ...patch })),
    [],
  );
  const direction: 'ltr' | 'rtl' = (settings.rtl ?? isRtlLanguage(i18n.language)) ? 'rtl' : 'ltr';

  useEffect(() => {
    document.documentElement.dir = direction;
    document.documentElement.lang = i18n.language;
  }, [direction, i18n.language]);

  const theme = useMemo(() => createAppTheme(settings, direction), [settings, direction]);
  const chromeTheme = useMemo(() => createAppTheme(settings, direction, 'chrome'), [settings, direction]);
  const value = useMemo(
    () => ({ settings, direction, chromeTheme, update }),
    [settings, direction, chromeTheme, update],
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
