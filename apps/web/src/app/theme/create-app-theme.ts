import { alpha, createTheme } from '@mui/material/styles';
import type { Theme } from '@mui/material/styles';
import type { ThemeSettings } from './theme-settings';

const FONT = ['Poppins', 'system-ui', '-apple-system', '"Segoe UI"', 'Roboto', 'Arial', 'sans-serif'].join(',');

/**
 * Builds the MUI theme from the settings. `surface` 'chrome' gives the always-dark theme of the
 * sidebar and (outside light mode) the header.
 */
export function createAppTheme(
  settings: ThemeSettings,
  direction: 'ltr' | 'rtl',
  surface: 'content' | 'chrome' = 'content',
): Theme {
  const dark = surface === 'chrome' || settings.mode === 'dark';
  const radius = settings.themeStyle === 'modern' ? 30 : 4;
  const background = dark
    ? {
        default: surface === 'chrome' ? settings.sidebarBackground : '#1b1b1f',
        paper: surface === 'chrome' ? settings.sidebarBackground : '#242429',
      }
    : { default: '#f4f6fb', paper: '#ffffff' };
  const theme = createTheme({
    direction,
    shape: { borderRadius: radius },
    palette: {
      mode: dark ? 'dark' : 'light',
      primary: { main: settings.primary },
      secondary: { main: settings.secondary },
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
  const focusRing = `2px solid ${alpha(theme.palette.primary.light, 0.9)}`;
  const styled = createTheme(theme, {
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          'html, body, #root': { height: '100%' },
          ':focus-visible': { outline: focusRing, outlineOffset: 2 },
        },
      },
      MuiButtonBase: {
        styleOverrides: { root: { '&.Mui-focusVisible': { outline: focusRing, outlineOffset: 2 } } },
      },
      MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCard: {
        defaultProps: { variant: 'outlined' },
        styleOverrides: { root: { borderRadius: settings.themeStyle === 'modern' ? 50 : radius * 2 } },
      },
      MuiTooltip: { defaultProps: { arrow: true } },
      MuiChip: { styleOverrides: { sizeSmall: { height: 20, fontSize: '0.7rem', fontWeight: 600 } } },
    },
  });
  return styled;
}
