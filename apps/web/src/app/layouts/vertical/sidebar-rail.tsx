import Box from '@mui/material/Box';
import { ThemeProvider } from '@mui/material/styles';
import type { FocusEvent } from 'react';
import { useState } from 'react';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { MINI_EXPANDED_WIDTH, MINI_SIDEBAR_WIDTH, RAIL_TRANSITION, SIDEBAR_WIDTH } from '../shared/layout-sizes';
import { SidebarContent } from '../shared/sidebar-content';
import type { VerticalVariant } from './vertical-variants';

/**
 * A mini sidebar that expands over the content while the pointer is on it or focus is inside it
 * (mini and header-user-mini, spec §2.5, §9: 4rem, 5rem on xl, expanding to 21.6rem).
 */
function HoverRail({ variant }: { variant: VerticalVariant }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const expanded = hovered || focused;
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
  };
  return (
    <Box sx={{ position: 'relative', width: MINI_SIDEBAR_WIDTH, flexShrink: 0, zIndex: 3 }}>
      <Box
        data-testid="mini-rail"
        data-expanded={expanded}
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => {
          // A click leaves focus on the link it followed; leaving with the pointer still collapses.
          setHovered(false);
          setFocused(false);
        }}
        onFocus={() => setFocused(true)}
        onBlur={onBlur}
        sx={{
          position: 'absolute',
          insetBlock: 0,
          insetInlineStart: 0,
          width: expanded ? MINI_EXPANDED_WIDTH : MINI_SIDEBAR_WIDTH,
          transition: RAIL_TRANSITION,
          boxShadow: expanded ? 12 : 'none',
          display: 'flex',
        }}
      >
        <SidebarContent user={variant.sidebarUser} infoBlocks={variant.infoBlocks} mini={!expanded} />
      </Box>
    </Box>
  );
}

/**
 * The sidebar from lg up: full width (19rem, 21.6rem on xl), a hover rail, or a rail the
 * header's button collapses and expands (mini-sidebar-toggle, with tooltips while collapsed).
 */
export function SidebarRail({ variant, collapsed }: { variant: VerticalVariant; collapsed: boolean }) {
  const { sidebarTheme } = useThemeSettings();
  const mini = variant.sidebar === 'toggle-mini' && collapsed;
  return (
    <ThemeProvider theme={sidebarTheme}>
      {variant.sidebar === 'hover-mini' ? (
        <HoverRail variant={variant} />
      ) : (
        <Box
          data-testid="sidebar-rail"
          data-collapsed={mini}
          sx={{
            width: mini ? MINI_SIDEBAR_WIDTH : SIDEBAR_WIDTH,
            flexShrink: 0,
            display: 'flex',
            transition: RAIL_TRANSITION,
          }}
        >
          <SidebarContent user={variant.sidebarUser} infoBlocks={variant.infoBlocks} mini={mini} tooltips={mini} />
        </Box>
      )}
    </ThemeProvider>
  );
}
