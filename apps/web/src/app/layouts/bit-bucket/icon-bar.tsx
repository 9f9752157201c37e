import KeyboardDoubleArrowLeftOutlined from '@mui/icons-material/KeyboardDoubleArrowLeftOutlined';
import KeyboardDoubleArrowRightOutlined from '@mui/icons-material/KeyboardDoubleArrowRightOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { ThemeProvider } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../../../components/language-switcher';
import { SecurityIndicators } from '../../../features/auth/components/security-indicators';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { CustomizeButton } from '../shared/customize-button';
import { HomeLink } from '../shared/home-link';
import { BIT_BUCKET_COLLAPSED_WIDTH } from '../shared/layout-sizes';
import { UserMenu } from '../shared/user-menu';

/**
 * The bit-bucket layout's mini icon bar (spec §2.5, §9: 4.3rem), its header from lg up: logo,
 * the button collapsing the sidebar, security indicators, language, Customize and the user menu.
 */
export function IconBar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const { darkTheme, direction } = useThemeSettings();
  const label = collapsed ? t('layout.expandNavigation') : t('layout.collapseNavigation');
  // The arrow points where the sidebar will go: towards the start side to collapse.
  const pointsStart = !collapsed;
  const Arrow =
    pointsStart === (direction === 'ltr') ? KeyboardDoubleArrowLeftOutlined : KeyboardDoubleArrowRightOutlined;
  return (
    <ThemeProvider theme={darkTheme}>
      <Box
        component="header"
        data-testid="bit-bucket-icon-bar"
        sx={{
          width: BIT_BUCKET_COLLAPSED_WIDTH,
          flexShrink: 0,
          height: '100%',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: 1,
          py: 1.5,
          bgcolor: 'primary.dark',
          color: 'common.white',
          '& .gh-security > div': { flexDirection: 'column' },
          // The theme's focus ring is a primary shade, which would vanish on this primary bar.
          '& .Mui-focusVisible, & :focus-visible': { outline: '2px solid #ffffff', outlineOffset: 2 },
        }}
      >
        <HomeLink markOnly />
        <Tooltip title={label} placement="right">
          <IconButton color="inherit" aria-label={label} aria-expanded={!collapsed} onClick={onToggle}>
            <Arrow />
          </IconButton>
        </Tooltip>
        <Box className="gh-security">
          <SecurityIndicators />
        </Box>
        <Box sx={{ flex: 1 }} />
        <LanguageSwitcher compact />
        <CustomizeButton tooltipPlacement="right" />
        <UserMenu trigger="avatar" />
      </Box>
    </ThemeProvider>
  );
}
