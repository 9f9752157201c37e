import type { NavStyle } from '../../theme/theme-settings';
import type { SidebarUser } from '../shared/sidebar-content';

/** How the sidebar shows from the lg breakpoint up (below lg it is always a drawer). */
export type SidebarMode = 'full' | 'hover-mini' | 'toggle-mini' | 'drawer';

/** What tells the vertical layouts apart (spec §2.5). */
export interface VerticalVariant {
  /** The header spans the window above the sidebar; otherwise the sidebar runs the full height beside it. */
  headerAbove: boolean;
  sidebar: SidebarMode;
  /** The header shows the avatar and name with the user menu (the header-user layouts). */
  userInHeader: boolean;
  /** What the sidebar shows above the navigation. */
  sidebarUser: SidebarUser;
  /** The security configuration and metadata blocks in the sidebar (header-user). */
  infoBlocks: boolean;
}

/** The navigation styles drawn by the vertical layout. */
export type VerticalNavStyle = Extract<
  NavStyle,
  'standard' | 'default' | 'header-user' | 'header-user-mini' | 'mini-sidebar-toggle' | 'mini' | 'drawer'
>;

/** Each vertical navigation style's shape. */
export const VERTICAL_VARIANTS: Record<VerticalNavStyle, VerticalVariant> = {
  standard: { headerAbove: true, sidebar: 'full', userInHeader: false, sidebarUser: 'menu', infoBlocks: false },
  default: { headerAbove: false, sidebar: 'full', userInHeader: false, sidebarUser: 'menu', infoBlocks: false },
  'header-user': { headerAbove: true, sidebar: 'full', userInHeader: true, sidebarUser: 'info', infoBlocks: true },
  'header-user-mini': {
    headerAbove: true,
    sidebar: 'hover-mini',
    userInHeader: true,
    sidebarUser: 'none',
    infoBlocks: false,
  },
  'mini-sidebar-toggle': {
    headerAbove: false,
    sidebar: 'toggle-mini',
    userInHeader: false,
    sidebarUser: 'menu',
    infoBlocks: false,
  },
  mini: { headerAbove: false, sidebar: 'hover-mini', userInHeader: false, sidebarUser: 'menu', infoBlocks: false },
  drawer: { headerAbove: true, sidebar: 'drawer', userInHeader: false, sidebarUser: 'menu', infoBlocks: false },
};

/** True for the navigation styles the vertical layout draws. */
export function isVerticalNavStyle(style: NavStyle): style is VerticalNavStyle {
  return style in VERTICAL_VARIANTS;
}
