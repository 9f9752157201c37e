import { CONTENT_BACKGROUND, isDarkContent } from './create-app-theme';
import type { ThemeSettings } from './theme-settings';

/**
 * Paints <html> with the content's background and colour scheme, from ThemeSettingsProvider whenever
 * the settings change (a mode changed in the Customize panel, overscroll, the area below a short
 * page). Before the console's code runs, public/page-canvas.js in <head> paints the same, so a dark
 * console never shows the browser's white canvas while its first render waits.
 */
export function paintPageCanvas(settings: ThemeSettings, root: HTMLElement = document.documentElement): void {
  const dark = isDarkContent(settings);
  root.style.backgroundColor = (dark ? CONTENT_BACKGROUND.dark : CONTENT_BACKGROUND.light).default;
  root.style.colorScheme = dark ? 'dark' : 'light';
}
