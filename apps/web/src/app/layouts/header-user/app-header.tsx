import MenuOutlined from '@mui/icons-material/MenuOutlined';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { ThemeProvider, useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { GlobalLoading } from '../../../components/global-loading';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { Logo } from '../../../components/logo';
import { SecurityIndicators } from '../../../features/auth/components/security-indicators';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { HEADER_HEIGHT } from './layout-sizes';
import { UserMenu } from './user-menu';

/** The header: menu button (below lg), logo and name, security icons, language and user menu. */
export function AppHeader(props: { showMenuButton: boolean; drawerOpen: boolean; onOpenDrawer: () => void }) {
  const { t } = useTranslation();
  const contentTheme = useTheme();
  const { settings, chromeTheme } = useThemeSettings();
  return (
    <ThemeProvider theme={settings.mode === 'light' ? contentTheme : chromeTheme}>
      <AppBar
        position="relative"
        elevation={0}
        color="inherit"
        sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider', zIndex: 2 }}
      >
        <Toolbar
          sx={{
            minHeight: { xs: HEADER_HEIGHT.xs, sm: HEADER_HEIGHT.sm },
            gap: { xs: 0.5, sm: 1.5 },
            px: { xs: 1.5, sm: 3 },
          }}
        >
          {props.showMenuButton ? (
            <IconButton
              edge="start"
              color="inherit"
              aria-label={t('header.openNavigation')}
              aria-expanded={props.drawerOpen}
              onClick={props.onOpenDrawer}
            >
              <MenuOutlined />
            </IconButton>
          ) : null}
          <Link
            component={RouterLink}
            to="/"
            aria-label={t('header.home')}
            color="inherit"
            underline="none"
            sx={{ display: 'flex', alignItems: 'center', gap: 1.25, borderRadius: 1 }}
          >
            <Logo size={34} />
            <Typography
              component="span"
              sx={{ fontSize: { xs: '1.1rem', sm: '1.25rem' }, fontWeight: 600, letterSpacing: '-0.01em' }}
            >
              {t('app.name')}
            </Typography>
          </Link>
          <Box sx={{ flex: 1 }} />
          <SecurityIndicators />
          <LanguageSwitcher compact={props.showMenuButton} />
          <UserMenu />
        </Toolbar>
        <GlobalLoading />
      </AppBar>
    </ThemeProvider>
  );
}
