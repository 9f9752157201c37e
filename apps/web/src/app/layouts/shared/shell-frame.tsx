import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { BOXED_MAX_WIDTH } from './layout-sizes';

/** The first stop of the keyboard: jumps past the header and navigation to the content. */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      component="button"
      type="button"
      onClick={() => document.getElementById('main-content')?.focus()}
      sx={{
        position: 'absolute',
        insetInlineStart: 8,
        top: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: '6px',
        bgcolor: 'background.paper',
        boxShadow: 4,
        transform: 'translateY(-200%)',
        '&:focus-visible': { transform: 'none' },
      }}
    >
      {t('layout.skipToContent')}
    </Link>
  );
}

/**
 * The frame of every signed-in layout: the window's height, full width or boxed (spec §2.9,
 * §9: 1260 px, 1680 on xl, centred), and the skip link.
 */
export function ShellFrame({ children }: { children: ReactNode }) {
  const { settings } = useThemeSettings();
  const boxed = settings.layoutType === 'boxed';
  return (
    <Box
      sx={(theme) => ({
        height: '100vh',
        display: 'flex',
        justifyContent: 'center',
        bgcolor: boxed ? (theme.palette.mode === 'dark' ? '#101013' : '#dfe4ee') : 'background.default',
      })}
    >
      <SkipLink />
      <Box
        data-testid="shell-layout"
        data-layout={settings.navStyle}
        data-layout-type={settings.layoutType}
        sx={{
          position: 'relative',
          height: '100%',
          width: '100%',
          maxWidth: boxed ? BOXED_MAX_WIDTH : 'none',
          display: 'flex',
          flexDirection: 'column',
          overflow: 'hidden',
          bgcolor: 'background.default',
          boxShadow: boxed ? 8 : 'none',
        }}
      >
        {children}
      </Box>
    </Box>
  );
}
