import type { ThemeSettings } from './theme-settings';
import { DEFAULT_THEME_SETTINGS, sanitizeSettings, settingsFromAddress } from './theme-settings';

/** The localStorage key of the theme settings (spec §2.9: they persist across visits). */
export const THEME_SETTINGS_KEY = 'themeSettings';

function store(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Blocked storage (privacy modes): settings then last for the page only.
    return undefined;
  }
}

/** The saved settings, checked field by field; the defaults when nothing (readable) is saved. */
export function loadThemeSettings(): ThemeSettings {
  const raw = store()?.getItem(THEME_SETTINGS_KEY);
  if (!raw) return DEFAULT_THEME_SETTINGS;
  try {
    return sanitizeSettings(JSON.parse(raw));
  } catch {
    return DEFAULT_THEME_SETTINGS;
  }
}

/**
 * The settings the console opens with: the saved ones, with the address's query settings over them,
 * so a link with ?theme_mode=light is light from the first render (useQuerySettings then saves them).
 */
export function openingThemeSettings(): ThemeSettings {
  const saved = loadThemeSettings();
  if (typeof window === 'undefined') return saved;
  return sanitizeSettings({ ...saved, ...settingsFromAddress(window.location.search, window.location.hash) });
}

/** Saves the settings. */
export function saveThemeSettings(settings: ThemeSettings): void {
  try {
    store()?.setItem(THEME_SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // A full or blocked storage keeps the settings for this page only.
  }
}

/** Forgets the saved settings (Reset to defaults). */
export function clearThemeSettings(): void {
  store()?.removeItem(THEME_SETTINGS_KEY);
}
