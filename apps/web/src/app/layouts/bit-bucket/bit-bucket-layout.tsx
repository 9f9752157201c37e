import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { ThemeProvider, useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GlobalLoading } from '../../../components/global-loading';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { AppHeader } from '../shared/app-header';
import { ContentArea } from '../shared/content-area';
import { HEADER_HEIGHT, SIDEBAR_WIDTH } from '../shared/layout-sizes';
import { NavDrawer } from '../shared/nav-drawer';
import { ShellFrame } from '../shared/shell-frame';
import { SidebarContent } from '../shared/sidebar-content';
import { usePathToggle } from '../shared/use-path-toggle';
import { IconBar } from './icon-bar';

/**
 * The bit-bucket layout (spec §2.5): from lg up a mini icon bar and beside it the navigation
 * sidebar, which the bar's button collapses (back to expanded on every path change, spec §2.3).
 * Below lg the header and the navigation drawer of every layout.
 */
export function BitBucketLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const { sidebarTheme } = useThemeSettings();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const [flag, setFlag] = usePathToggle();

  if (!wide) {
    return (
      <ShellFrame>
        <AppHeader menuButton={{ label: t('header.openNavigation'), expanded: flag, onClick: () => setFlag(true) }} />
        <NavDrawer open={flag} onClose={() => setFlag(false)}>
          <SidebarContent user="menu" />
        </NavDrawer>
        <ContentArea>{children}</ContentArea>
      </ShellFrame>
    );
  }
  return (
    <ShellFrame>
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>
        <IconBar collapsed={flag} onToggle={() => setFlag(!flag)} />
        <ThemeProvider theme={sidebarTheme}>
          <Collapse
            in={!flag}
            orientation="horizontal"
            data-testid="bit-bucket-sidebar"
            sx={{ flexShrink: 0, '& .MuiCollapse-wrapper, & .MuiCollapse-wrapperInner': { height: '100%' } }}
          >
            <Box sx={{ width: SIDEBAR_WIDTH, height: '100%', display: 'flex', flexDirection: 'column' }}>
              <Box
                sx={{
                  minHeight: HEADER_HEIGHT,
                  px: 3,
                  display: 'flex',
                  flexDirection: 'column',
                  justifyContent: 'center',
                  bgcolor: 'background.paper',
                  borderInlineEnd: 1,
                  borderBottom: 1,
                  borderColor: 'divider',
                }}
              >
                <Typography component="p" sx={{ fontWeight: 600, fontSize: '1.15rem' }}>
                  {t('app.name')}
                </Typography>
                <Typography component="p" variant="caption" sx={{ color: 'text.secondary' }}>
                  {t('app.tagline')}
                </Typography>
              </Box>
              <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
                <SidebarContent user="none" />
              </Box>
            </Box>
          </Collapse>
        </ThemeProvider>
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', position: 'relative' }}>
          <Box sx={{ position: 'absolute', insetInline: 0, top: 0, height: 2, zIndex: 2 }}>
            <GlobalLoading />
          </Box>
          <ContentArea>{children}</ContentArea>
        </Box>
      </Box>
    </ShellFrame>
  );
}
