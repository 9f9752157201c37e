/** Theme mode (spec §2.9): light, dark, or light content with a dark header and sidebar. */
export type ThemeMode = 'light' | 'dark' | 'semi-dark';
/** Theme style: standard (corner radius 4) or modern (radius 30). */
export type ThemeStyle = 'standard' | 'modern';

/** Navigation styles the spec lists; this release renders every one as header-user. */
export const NAV_STYLES = [
  'standard',
  'default',
  'header-user',
  'header-user-mini',
  'mini-sidebar-toggle',
  'mini',
  'drawer',
  'bit-bucket',
  'h-default',
  'hor-light-nav',
  'hor-dark-layout',
] as const;
/** One navigation style. */
export type NavStyle = (typeof NAV_STYLES)[number];

/** The runtime theme settings (spec §2.9). */
export interface ThemeSettings {
  mode: ThemeMode;
  navStyle: NavStyle;
  themeStyle: ThemeStyle;
  /** Whether the footer shows; the issue asks for it visible, so it defaults to true. */
  footer: boolean;
  footerType: 'fluid' | 'fixed';
  layoutType: 'full-width' | 'boxed';
  primary: string;
  secondary: string;
  sidebarBackground: string;
  /** Forces right-to-left (is_rtl query); null follows the language. */
  rtl: boolean | null;
}

/** Defaults of spec §2.9, except the footer (see ThemeSettings.footer). */
export const DEFAULT_THEME_SETTINGS: ThemeSettings = {
  mode: 'dark',
  navStyle: 'header-user',
  themeStyle: 'standard',
  footer: true,
  footerType: 'fluid',
  layoutType: 'full-width',
  primary: '#0078D7',
  secondary: '#2098F7',
  sidebarBackground: '#313134',
  rtl: null,
};

const MODES: readonly string[] = ['light', 'dark', 'semi-dark'];
const STYLES: readonly string[] = ['standard', 'modern'];

/** Reads the query settings theme_mode, is_rtl, nav_style and theme_style (spec §2.4). */
export function settingsFromQuery(params: URLSearchParams): Partial<ThemeSettings> {
  const patch: Partial<ThemeSettings> = {};
  const mode = params.get('theme_mode');
  if (mode && MODES.includes(mode)) patch.mode = mode as ThemeMode;
  const rtl = params.get('is_rtl');
  if (rtl === 'true' || rtl === 'false') patch.rtl = rtl === 'true';
  const nav = params.get('nav_style');
  if (nav && (NAV_STYLES as readonly string[]).includes(nav)) patch.navStyle = nav as NavStyle;
  const style = params.get('theme_style');
  if (style && STYLES.includes(style)) patch.themeStyle = style as ThemeStyle;
  return patch;
}
