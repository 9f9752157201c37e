import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { AppFooter } from './app-footer';
import { CONTENT_PADDING, HORIZONTAL_MAX_WIDTH } from './layout-sizes';

/**
 * The scrolling content and the footer (fluid at the end of the content, or fixed under it). The
 * scroll container returns to the top on every path change (spec §2.4). `narrow` keeps the
 * content within the horizontal layouts' width (spec §9).
 */
export function ContentArea({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  const { settings } = useThemeSettings();
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const maxWidth = narrow ? HORIZONTAL_MAX_WIDTH : undefined;

  // Not on the first render: a new container is at the top already, and scrolling it would make
  // the browser lay the whole page out there and then (about 0.1 s of a cold load).
  const scrolledFor = useRef(pathname);
  useEffect(() => {
    if (scrolledFor.current === pathname) return;
    scrolledFor.current = pathname;
    main.current?.scrollTo({ top: 0 });
  }, [pathname]);

  const footer = settings.footer ? <AppFooter type={settings.footerType} maxWidth={maxWidth} /> : null;
  return (
    <Box sx={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      <Box
        ref={main}
        component="main"
        id="main-content"
        tabIndex={-1}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column', outline: 'none' }}
      >
        <Box sx={{ flex: 1, width: '100%', mx: 'auto', p: CONTENT_PADDING, maxWidth: maxWidth ?? 'none' }}>
          {children}
        </Box>
        {settings.footerType === 'fluid' ? footer : null}
      </Box>
      {settings.footerType === 'fixed' ? footer : null}
    </Box>
  );
}
