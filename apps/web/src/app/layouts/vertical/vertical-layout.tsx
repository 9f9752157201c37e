import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppHeader } from '../shared/app-header';
import type { MenuButtonProps } from '../shared/app-header';
import { ContentArea } from '../shared/content-area';
import { NavDrawer } from '../shared/nav-drawer';
import { ShellFrame } from '../shared/shell-frame';
import { SidebarContent } from '../shared/sidebar-content';
import { usePathToggle } from '../shared/use-path-toggle';
import { SidebarRail } from './sidebar-rail';
import type { VerticalNavStyle } from './vertical-variants';
import { VERTICAL_VARIANTS } from './vertical-variants';

/**
 * The vertical layouts (spec §2.5): standard, default, header-user, header-user-mini,
 * mini-sidebar-toggle, mini and drawer. One shell; the variant decides where the header sits,
 * how the sidebar shows from lg up, and where the user menu is. Below lg every one has the header
 * on top and the sidebar in a drawer opened by the menu button.
 */
export function VerticalLayout({ navStyle, children }: { navStyle: VerticalNavStyle; children: ReactNode }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const variant = VERTICAL_VARIANTS[navStyle];
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  // One flag per path (spec §2.3): the drawer's open state below lg or in the drawer layout, the
  // collapsed state of mini-sidebar-toggle; both fall back on every path change.
  const [flag, setFlag] = usePathToggle();
  const inDrawer = !wide || variant.sidebar === 'drawer';
  const toggles = wide && variant.sidebar === 'toggle-mini';

  const menuButton: MenuButtonProps | null = inDrawer
    ? { label: t('header.openNavigation'), expanded: flag, onClick: () => setFlag(true) }
    : toggles
      ? {
          label: flag ? t('layout.expandNavigation') : t('layout.collapseNavigation'),
          expanded: !flag,
          onClick: () => setFlag(!flag),
          kind: 'toggle',
        }
      : null;
  const header = <AppHeader menuButton={menuButton} userMenu={variant.userInHeader} />;
  const headerOnTop = variant.headerAbove || !wide;

  return (
    <ShellFrame>
      {headerOnTop ? header : null}
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {inDrawer ? (
          <NavDrawer open={flag} onClose={() => setFlag(false)}>
            <SidebarContent user={variant.userInHeader ? 'info' : 'menu'} infoBlocks={variant.infoBlocks} />
          </NavDrawer>
        ) : (
          <SidebarRail variant={variant} collapsed={flag} />
        )}
        <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          {headerOnTop ? null : header}
          <ContentArea>{children}</ContentArea>
        </Box>
      </Box>
    </ShellFrame>
  );
}
