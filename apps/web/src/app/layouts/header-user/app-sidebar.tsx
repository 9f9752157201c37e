import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import { BuildInfo } from '../../../features/system/components/build-info';
import { SecuritySummary } from '../../../features/auth/components/security-summary';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { MainNavigation } from './main-navigation';
import { SidebarUserInfo } from './sidebar-user-info';

/** The header-user sidebar: user info, navigation, security configuration and metadata. */
export function AppSidebar() {
  const { settings } = useThemeSettings();
  return (
    <Box
      component="aside"
      sx={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: settings.sidebarBackground,
        color: 'text.primary',
        overflowY: 'auto',
        borderInlineEnd: 1,
        borderColor: 'divider',
      }}
    >
      <SidebarUserInfo />
      <Divider />
      <MainNavigation />
      <Box sx={{ flex: 1 }} />
      <Box
        sx={{
          m: 2,
          p: 2,
          display: 'flex',
          flexDirection: 'column',
          gap: 2,
          borderRadius: 2,
          bgcolor: 'rgba(255,255,255,0.04)',
          border: 1,
          borderColor: 'divider',
        }}
      >
        <SecuritySummary />
        <BuildInfo />
      </Box>
    </Box>
  );
}
