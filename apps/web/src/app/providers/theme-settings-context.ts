import type { Theme } from '@mui/material/styles';
import { createContext, useContext } from 'react';
import type { ThemeSettings } from '../theme/theme-settings';

/** The runtime theme settings, the text direction and the always-dark chrome theme. */
export interface ThemeSettingsValue {
  settings: ThemeSettings;
  direction: 'ltr' | 'rtl';
  /** Theme of the sidebar, and of the header outside light mode. */
  chromeTheme: Theme;
  update: (patch: Partial<ThemeSettings>) => void;
}

/** Filled by ThemeSettingsProvider. */
export const ThemeSettingsContext = createContext<ThemeSettingsValue | null>(null);

/** The theme settings; must be used under ThemeSettingsProvider. */
export function useThemeSettings(): ThemeSettingsValue {
  const value = useContext(ThemeSettingsContext);
  if (!value) throw new Error('useThemeSettings must be used inside ThemeSettingsProvider');
  return value;
}
