import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import { ThemeProvider, useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';
import { SIDEBAR_WIDTH } from './layout-sizes';

/**
 * The default 'header-user' layout (spec §2.5): header across the top, sidebar on the start side
 * (a temporary drawer below lg, closed on navigation), scrolling content and the footer.
 */
export function HeaderUserLayout({ children }: { children: ReactNode }) {
  const theme = useTheme();
  const { settings, chromeTheme } = useThemeSettings();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const { pathname } = useLocation();
  // The drawer is open only on the path it was opened on, so any navigation closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const drawerOpen = openedOn === pathname;
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    main.current?.scrollTo({ top: 0 });
  }, [pathname]);

  const sidebar = (
    <ThemeProvider theme={chromeTheme}>
      <AppSidebar />
    </ThemeProvider>
  );

  return (
    <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AppHeader showMenuButton={!wide} drawerOpen={drawerOpen} onOpenDrawer={() => setOpenedOn(pathname)} />
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {wide ? (
          <Box sx={{ width: SIDEBAR_WIDTH, flexShrink: 0, display: 'flex' }}>{sidebar}</Box>
        ) : (
          <Drawer
            variant="temporary"
            open={drawerOpen}
            onClose={() => setOpenedOn(null)}
            slotProps={{
              paper: { sx: { width: SIDEBAR_WIDTH, maxWidth: '85vw', bgcolor: settings.sidebarBackground } },
            }}
            ModalProps={{ keepMounted: true }}
          >
            {sidebar}
          </Drawer>
        )}
        <Box
          ref={main}
          component="main"
          id="main-content"
          tabIndex={-1}
          sx={{ flex: 1, minWidth: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column', outline: 'none' }}
        >
          <Box
            sx={{
              flex: 1,
              width: '100%',
              mx: 'auto',
              p: { xs: 2, sm: 3, md: 4 },
              maxWidth: settings.layoutType === 'boxed' ? { xs: 1260, xl: 1680 } : 'none',
            }}
          >
            {children}
          </Box>
          {settings.footer ? <AppFooter /> : null}
        </Box>
      </Box>
    </Box>
  );
}
