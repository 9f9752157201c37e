/** Theme mode (spec §2.9): light, dark, or light content with a dark sidebar. */
export type ThemeMode = 'light' | 'dark' | 'semi-dark';
/** Theme style: standard (corner radius 4) or modern (radius 30, large cards 50). */
export type ThemeStyle = 'standard' | 'modern';

/** The theme modes in the order the settings panel offers them. */
export const THEME_MODES = ['light', 'semi-dark', 'dark'] as const satisfies readonly ThemeMode[];
/** The theme styles. */
export const THEME_STYLES = ['standard', 'modern'] as const satisfies readonly ThemeStyle[];

/** Navigation styles of spec §2.5, each with its own layout (app/layouts). */
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

/** Layout width: the full window, or a centred box (spec §9: 1260 px, 1680 on xl). */
export const LAYOUT_TYPES = ['full-width', 'boxed'] as const;
/** Footer position: at the end of the content (fluid) or fixed under it. */
export const FOOTER_TYPES = ['fluid', 'fixed'] as const;
/** Header surface. */
export const HEADER_TYPES = ['dark', 'light'] as const;
/** Route transitions (spec §2.9), 300 ms in and out. */
export const ROUTE_TRANSITIONS = ['none', 'fade', 'slideLeft', 'slideRight', 'slideUp', 'slideDown'] as const;
/** One route transition. */
export type RouteTransition = (typeof ROUTE_TRANSITIONS)[number];

/** The runtime theme settings (spec §2.9). */
export interface ThemeSettings {
  mode: ThemeMode;
  navStyle: NavStyle;
  themeStyle: ThemeStyle;
  /** Whether the footer shows; the foundation issue asks for it visible, so it defaults to true. */
  footer: boolean;
  footerType: (typeof FOOTER_TYPES)[number];
  layoutType: (typeof LAYOUT_TYPES)[number];
  headerType: (typeof HEADER_TYPES)[number];
  routeTransition: RouteTransition;
  /** Primary colour, #rrggbb. */
  primary: string;
  /** Secondary colour, #rrggbb. */
  secondary: string;
  /** Background of the dark sidebar. */
  sidebarBackground: string;
  /** Forces right-to-left (true) or left-to-right (false); null follows the language (is_rtl query). */
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
  headerType: 'dark',
  routeTransition: 'none',
  primary: '#0078D7',
  secondary: '#2098F7',
  sidebarBackground: '#313134',
  rtl: null,
};

/** True for a #rrggbb colour, the form colour inputs give and presets use. */
export function isHexColour(value: unknown): value is string {
  return typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value);
}

function oneOf<T extends string>(options: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (options as readonly string[]).includes(value);
}

/**
 * The settings a stored or hand-edited value describes: every field checked on its own, unknown or
 * invalid ones replaced by the default, so an old or damaged entry never breaks the console.
 */
export function sanitizeSettings(value: unknown): ThemeSettings {
  const raw: Partial<Record<keyof ThemeSettings, unknown>> = typeof value === 'object' && value !== null ? value : {};
  const d = DEFAULT_THEME_SETTINGS;
  return {
    mode: oneOf(THEME_MODES, raw.mode) ? raw.mode : d.mode,
    navStyle: oneOf(NAV_STYLES, raw.navStyle) ? raw.navStyle : d.navStyle,
    themeStyle: oneOf(THEME_STYLES, raw.themeStyle) ? raw.themeStyle : d.themeStyle,
    footer: typeof raw.footer === 'boolean' ? raw.footer : d.footer,
    footerType: oneOf(FOOTER_TYPES, raw.footerType) ? raw.footerType : d.footerType,
    layoutType: oneOf(LAYOUT_TYPES, raw.layoutType) ? raw.layoutType : d.layoutType,
    headerType: oneOf(HEADER_TYPES, raw.headerType) ? raw.headerType : d.headerType,
    routeTransition: oneOf(ROUTE_TRANSITIONS, raw.routeTransition) ? raw.routeTransition : d.routeTransition,
    primary: isHexColour(raw.primary) ? raw.primary : d.primary,
    secondary: isHexColour(raw.secondary) ? raw.secondary : d.secondary,
    sidebarBackground: isHexColour(raw.sidebarBackground) ? raw.sidebarBackground : d.sidebarBackground,
    rtl: typeof raw.rtl === 'boolean' ? raw.rtl : null,
  };
}

/**
 * The query settings of a page address: its page query (?theme_mode=light#/signin), then its hash
 * query (#/signin?theme_mode=light), which wins where both name a setting.
 */
export function settingsFromAddress(search: string, hash: string): Partial<ThemeSettings> {
  const query = hash.indexOf('?');
  return {
    ...settingsFromQuery(new URLSearchParams(search)),
    ...settingsFromQuery(new URLSearchParams(query < 0 ? '' : hash.slice(query + 1))),
  };
}

/** Reads the query settings theme_mode, is_rtl, nav_style and theme_style (spec §2.4). */
export function settingsFromQuery(params: URLSearchParams): Partial<ThemeSettings> {
  const patch: Partial<ThemeSettings> = {};
  const mode = params.get('theme_mode');
  if (oneOf(THEME_MODES, mode)) patch.mode = mode;
  const rtl = params.get('is_rtl');
  if (rtl === 'true' || rtl === 'false') patch.rtl = rtl === 'true';
  const nav = params.get('nav_style');
  if (oneOf(NAV_STYLES, nav)) patch.navStyle = nav;
  const style = params.get('theme_style');
  if (oneOf(THEME_STYLES, style)) patch.themeStyle = style;
  return patch;
}
