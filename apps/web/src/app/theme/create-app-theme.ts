import { alpha, createTheme } from '@mui/material/styles';
import type { Theme } from '@mui/material/styles';
import { STATUS_COLOURS, readableOnDark, readableOnLight, withWhiteText } from './contrast';
import type { ThemeSettings } from './theme-settings';

const FONT = ['Poppins', 'system-ui', '-apple-system', '"Segoe UI"', 'Roboto', 'Arial', 'sans-serif'].join(',');

/** Corner radius of each theme style (spec §2.9). */
export const STYLE_RADIUS = { standard: 4, modern: 30 } as const;

/**
 * Which surface a theme paints: the content (light or dark by the mode), or a dark or light
 * frame for the sidebar and header, whose colours follow the mode and header settings.
 */
export type ThemeSurface = 'content' | 'dark' | 'light';

/** The content's backgrounds in dark and light mode (also the page's canvas: page-canvas.ts). */
export const CONTENT_BACKGROUND = {
  dark: { default: '#1b1b1f', paper: '#242429' },
  light: { default: '#f4f6fb', paper: '#ffffff' },
} as const;

/** True when the content area is dark: only the dark mode (semi-dark keeps light content). */
export function isDarkContent(settings: ThemeSettings): boolean {
  return settings.mode === 'dark';
}

/** The sidebar surface: light in light mode, dark in semi-dark and dark (spec §2.9). */
export function sidebarSurface(settings: ThemeSettings): 'dark' | 'light' {
  return settings.mode === 'light' ? 'light' : 'dark';
}

/** Builds the MUI theme of one surface from the settings. */
export function createAppTheme(
  settings: ThemeSettings,
  direction: 'ltr' | 'rtl',
  surface: ThemeSurface = 'content',
): Theme {
  const dark = surface === 'dark' || (surface === 'content' && isDarkContent(settings));
  const radius = STYLE_RADIUS[settings.themeStyle];
  const background = dark
    ? surface === 'dark'
      ? { default: settings.sidebarBackground, paper: settings.sidebarBackground }
      : CONTENT_BACKGROUND.dark
    : CONTENT_BACKGROUND.light;
  // On dark surfaces `primary.light` is the readable text shade; the components below use it.
  const primaryText = dark ? readableOnDark(settings.primary, background.paper) : undefined;
  const theme = createTheme({
    direction,
    shape: { borderRadius: radius },
    palette: {
      mode: dark ? 'dark' : 'light',
      // White text on primary (contained buttons, selected entries) keeps 4.5:1: see withWhiteText.
      // In light mode the main shade is also text on light surfaces (tabs, outlined buttons, labels).
      primary: primaryText
        ? { main: withWhiteText(settings.primary), light: primaryText }
        : { main: readableOnLight(withWhiteText(settings.primary), background.default) },
      secondary: { main: settings.secondary },
      ...Object.fromEntries(
        Object.entries(STATUS_COLOURS[dark ? 'dark' : 'light']).map(([name, main]) => [name, { main }]),
      ),
      background,
      divider: dark ? 'rgba(255,255,255,0.09)' : 'rgba(15,23,42,0.09)',
    },
    typography: {
      fontFamily: FONT,
      fontWeightLight: 300,
      fontWeightRegular: 400,
      fontWeightMedium: 500,
      fontWeightBold: 600,
      h1: { fontSize: '1.75rem', fontWeight: 600, letterSpacing: '-0.01em' },
      h2: { fontSize: '1.4rem', fontWeight: 600 },
      h3: { fontSize: '1.15rem', fontWeight: 600 },
      h4: { fontSize: '1rem', fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 500 },
      overline: { fontWeight: 600, letterSpacing: '0.08em' },
    },
  });
  const focusRing = `2px solid ${alpha(dark ? theme.palette.primary.light : theme.palette.primary.dark, 0.95)}`;
  // Modern cards (spec §2.9, §9): 50 on large screens, 20 on mobile (below md).
  const cardRadius = settings.themeStyle === 'modern' ? { xs: 20, md: 50 } : { xs: radius };
  // Text shades of primary on dark surfaces: text and outlined buttons, links, selected tabs and toggles.
  const darkText = primaryText
    ? {
        MuiLink: { defaultProps: { color: 'primary.light' } },
        MuiTab: { styleOverrides: { root: { '&.Mui-selected': { color: primaryText } } } },
        MuiFormLabel: { styleOverrides: { root: { '&.Mui-focused': { color: primaryText } } } },
        MuiToggleButton: {
          styleOverrides: {
            root: { variants: [{ props: { color: 'primary' }, style: { '&.Mui-selected': { color: primaryText } } }] },
          },
        },
      }
    : {};
  const primaryTextVariants = primaryText
    ? [
        { props: { variant: 'text', color: 'primary' }, style: { color: primaryText } },
        { props: { variant: 'outlined', color: 'primary' }, style: { color: primaryText } },
      ]
    : [];
  return createTheme(theme, {
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          'html, body, #root': { height: '100%' },
          ':focus-visible': { outline: focusRing, outlineOffset: 2 },
          '@media (prefers-reduced-motion: reduce)': {
            '*, *::before, *::after': { animationDuration: '1ms !important', transitionDuration: '1ms !important' },
          },
        },
      },
      MuiButtonBase: {
        styleOverrides: { root: { '&.Mui-focusVisible': { outline: focusRing, outlineOffset: 2 } } },
      },
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { variants: primaryTextVariants } },
      },
      MuiCard: {
        defaultProps: { variant: 'outlined' },
        styleOverrides: {
          root: {
            borderRadius: cardRadius.xs,
            ...('md' in cardRadius ? { [theme.breakpoints.up('md')]: { borderRadius: cardRadius.md } } : {}),
          },
        },
      },
      MuiTooltip: { defaultProps: { arrow: true } },
      MuiChip: {
        styleOverrides: {
          sizeSmall: { height: 20, fontSize: '0.7rem', fontWeight: 600 },
          root: { variants: primaryTextVariants.slice(1) },
        },
      },
      ...darkText,
    },
  });
}
