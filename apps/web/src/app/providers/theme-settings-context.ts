import type { Theme } from '@mui/material/styles';
import { createContext, useContext } from 'react';
import type { ThemeSettings } from '../theme/theme-settings';

/** The runtime theme settings, the text direction and the themes of the frame's surfaces. */
export interface ThemeSettingsValue {
  settings: ThemeSettings;
  direction: 'ltr' | 'rtl';
  /** Theme of the sidebar: light in light mode, dark otherwise. */
  sidebarTheme: Theme;
  /** Theme of the header, by the header setting (dark or light). */
  headerTheme: Theme;
  /** The dark and light frame themes, for layouts that force one (hor-dark-layout, hor-light-nav). */
  darkTheme: Theme;
  lightTheme: Theme;
  /** Changes some settings at once; they apply instantly and are saved. */
  update: (patch: Partial<ThemeSettings>) => void;
  /** Back to the defaults of spec §2.9; the saved settings are forgotten. */
  reset: () => void;
}

/** Filled by ThemeSettingsProvider. */
export const ThemeSettingsContext = createContext<ThemeSettingsValue | null>(null);

/** The theme settings; must be used under ThemeSettingsProvider. */
export function useThemeSettings(): ThemeSettingsValue {
  const value = useContext(ThemeSettingsContext);
  if (!value) throw new Error('useThemeSettings must be used inside ThemeSettingsProvider');
  return value;
}
