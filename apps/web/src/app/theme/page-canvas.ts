import { CONTENT_BACKGROUND, isDarkContent } from './create-app-theme';
import type { ThemeSettings } from './theme-settings';

/**
 * Paints <html> with the content's background and colour scheme. main.tsx calls it before anything
 * else, so the page is in its mode from its first paint: the console's first render waits for its
 * language and for the opened screen's code, and a dark console used to show the browser's white
 * canvas meanwhile. ThemeSettingsProvider keeps it in step with the settings afterwards (a mode
 * changed in the Customize panel, overscroll, the area below a short page).
 */
export function paintPageCanvas(settings: ThemeSettings, root: HTMLElement = document.documentElement): void {
  const dark = isDarkContent(settings);
  root.style.backgroundColor = (dark ? CONTENT_BACKGROUND.dark : CONTENT_BACKGROUND.light).default;
  root.style.colorScheme = dark ? 'dark' : 'light';
}
