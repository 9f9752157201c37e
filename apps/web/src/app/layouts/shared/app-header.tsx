import MenuOpenOutlined from '@mui/icons-material/MenuOpenOutlined';
import MenuOutlined from '@mui/icons-material/MenuOutlined';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import { ThemeProvider } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { GlobalLoading } from '../../../components/global-loading';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { SecurityIndicators } from '../../../features/auth/components/security-indicators';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { CustomizeButton } from './customize-button';
import { HomeLink } from './home-link';
import { HEADER_HEIGHT, HORIZONTAL_MAX_WIDTH } from './layout-sizes';
import { UserMenu } from './user-menu';

/** The header's menu button: opens the navigation drawer, or collapses and expands a sidebar. */
export interface MenuButtonProps {
  label: string;
  /** aria-expanded: the drawer is open or the sidebar expanded. */
  expanded: boolean;
  onClick: () => void;
  /** 'toggle' shows the collapse icon while expanded (mini-sidebar-toggle). */
  kind?: 'open' | 'toggle';
}

/** What a layout puts in the shared header. */
export interface AppHeaderProps {
  menuButton?: MenuButtonProps | null;
  /** Avatar and name with the user menu (header-user and horizontal layouts). */
  userMenu?: boolean;
  /** The horizontal layouts' fixed subtitle. */
  subtitle?: string;
  /** Forces the header's surface (hor-dark-layout); otherwise the header setting decides. */
  surface?: 'dark' | 'light';
  /** Keeps the header's content within the horizontal layouts' width. */
  narrow?: boolean;
  /** A row under the toolbar: the horizontal navigation. */
  bottom?: ReactNode;
}

/**
 * The header every layout shares (spec §2.5): menu button, logo and name, security indicators,
 * language switcher, the Customize button and, where the layout wants it, the user menu.
 */
export function AppHeader({ menuButton, userMenu = false, subtitle, surface, narrow = false, bottom }: AppHeaderProps) {
  const { headerTheme, darkTheme, lightTheme, direction } = useThemeSettings();
  const theme = surface === 'dark' ? darkTheme : surface === 'light' ? lightTheme : headerTheme;
  const small = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  return (
    <ThemeProvider theme={theme}>
      <AppBar
        component="header"
        position="relative"
        elevation={0}
        color="inherit"
        sx={{ bgcolor: 'background.paper', color: 'text.primary', borderBottom: 1, borderColor: 'divider', zIndex: 2 }}
      >
        <Toolbar
          sx={{
            minHeight: { xs: HEADER_HEIGHT.xs, sm: HEADER_HEIGHT.sm },
            gap: { xs: 0.5, sm: 1.5 },
            px: { xs: 1.5, sm: 3 },
            width: '100%',
            maxWidth: narrow ? HORIZONTAL_MAX_WIDTH : 'none',
            mx: 'auto',
          }}
        >
          {menuButton ? (
            <IconButton
              edge="start"
              color="inherit"
              aria-label={menuButton.label}
              aria-expanded={menuButton.expanded}
              onClick={menuButton.onClick}
            >
              {menuButton.kind === 'toggle' && menuButton.expanded ? (
                <MenuOpenOutlined sx={{ transform: direction === 'rtl' ? 'scaleX(-1)' : 'none' }} />
              ) : (
                <MenuOutlined />
              )}
            </IconButton>
          ) : null}
          <HomeLink subtitle={subtitle} />
          <Box sx={{ flex: 1 }} />
          <SecurityIndicators />
          <LanguageSwitcher compact={small} />
          <CustomizeButton />
          {userMenu ? <UserMenu trigger="header" /> : null}
        </Toolbar>
        {bottom}
        <GlobalLoading />
      </AppBar>
    </ThemeProvider>
  );
}
