import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { NavStyle } from '../../theme/theme-settings';
import { AppHeader } from '../shared/app-header';
import { ContentArea } from '../shared/content-area';
import { NavDrawer } from '../shared/nav-drawer';
import { ShellFrame } from '../shared/shell-frame';
import { SidebarContent } from '../shared/sidebar-content';
import { usePathToggle } from '../shared/use-path-toggle';
import type { HorizontalNavTone } from './horizontal-navigation';
import { HorizontalNavigation } from './horizontal-navigation';

/** The navigation styles drawn by the horizontal layout. */
export type HorizontalNavStyle = Extract<NavStyle, 'h-default' | 'hor-light-nav' | 'hor-dark-layout'>;

const TONE: Record<HorizontalNavStyle, HorizontalNavTone> = {
  'h-default': 'primary',
  'hor-light-nav': 'light',
  'hor-dark-layout': 'dark',
};

/**
 * The horizontal layouts (spec §2.5): the header with the fixed 'System Manager' subtitle and the
 * user menu (with My account), the navigation across it from lg up, and the content within
 * 1140 px (1720 on xl). hor-dark-layout darkens the whole header whatever the header setting.
 * Below lg the navigation moves to a drawer opened by the menu button.
 */
export function HorizontalLayout({ navStyle, children }: { navStyle: HorizontalNavStyle; children: ReactNode }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const [open, setOpen] = usePathToggle();
  return (
    <ShellFrame>
      <AppHeader
        narrow
        userMenu
        subtitle={t('layout.systemManager')}
        surface={navStyle === 'hor-dark-layout' ? 'dark' : undefined}
        menuButton={wide ? null : { label: t('header.openNavigation'), expanded: open, onClick: () => setOpen(true) }}
        bottom={wide ? <HorizontalNavigation tone={TONE[navStyle]} /> : null}
      />
      {wide ? null : (
        <NavDrawer open={open} onClose={() => setOpen(false)}>
          <SidebarContent user="info" />
        </NavDrawer>
      )}
      <ContentArea narrow>{children}</ContentArea>
    </ShellFrame>
  );
}
