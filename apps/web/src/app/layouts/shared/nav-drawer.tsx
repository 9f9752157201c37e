import Drawer from '@mui/material/Drawer';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { SIDEBAR_WIDTH } from './layout-sizes';

/**
 * The navigation as a temporary drawer on the start side: below lg in every layout, and at
 * every width in the drawer layout (spec §2.5). Closed on any path change by its owner.
 */
export function NavDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const { sidebarTheme } = useThemeSettings();
  return (
    <ThemeProvider theme={sidebarTheme}>
      <Drawer
        variant="temporary"
        open={open}
        onClose={onClose}
        ModalProps={{ keepMounted: true }}
        slotProps={{
          paper: {
            'aria-label': t('layout.navigationDrawer'),
            sx: { width: SIDEBAR_WIDTH, maxWidth: '85vw', bgcolor: 'background.paper' },
          },
        }}
      >
        {children}
      </Drawer>
    </ThemeProvider>
  );
}
