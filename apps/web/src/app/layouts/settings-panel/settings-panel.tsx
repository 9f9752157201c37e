import CloseOutlined from '@mui/icons-material/CloseOutlined';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MockDataSwitch } from '../../../components/mock-data-switch';
import { useThemeSettings } from '../../providers/theme-settings-context';
import {
  FOOTER_TYPES,
  HEADER_TYPES,
  LAYOUT_TYPES,
  NAV_STYLES,
  ROUTE_TRANSITIONS,
  THEME_MODES,
  THEME_STYLES,
} from '../../theme/theme-settings';
import { ColourSettings } from './colour-settings';
import { RadioChoice, SettingSection, ToggleChoice } from './setting-controls';

const DIRECTIONS = ['auto', 'ltr', 'rtl'] as const;
type DirectionChoice = (typeof DIRECTIONS)[number];

/**
 * The theme settings panel (spec §2.9): a drawer on the end side (left in right-to-left) with
 * every setting; changes apply at once and are saved in this browser.
 */
export function SettingsPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings, update, reset } = useThemeSettings();
  const titleId = useId();
  const direction: DirectionChoice = settings.rtl === null ? 'auto' : settings.rtl ? 'rtl' : 'ltr';

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{
        paper: {
          'aria-labelledby': titleId,
          sx: { width: { xs: '100%', sm: 400 }, display: 'flex', flexDirection: 'column' },
        },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, px: 3, pt: 2.5, pb: 2 }}>
        <Box sx={{ flex: 1 }}>
          <Typography id={titleId} component="h2" variant="h3">
            {t('themeSettings.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('themeSettings.subtitle')}
          </Typography>
        </Box>
        <IconButton aria-label={t('common.close')} onClick={onClose} edge="end">
          <CloseOutlined />
        </IconButton>
      </Box>
      <Divider />
      <Box
        data-testid="settings-panel-body"
        sx={{ flex: 1, overflowY: 'auto', px: 3, py: 2, display: 'flex', flexDirection: 'column', gap: 2.5 }}
      >
        <SettingSection title={t('themeSettings.mode')}>
          {(id) => (
            <ToggleChoice
              labelledBy={id}
              options={THEME_MODES}
              value={settings.mode}
              label={(mode) => t(`themeSettings.modes.${mode}`)}
              onChange={(mode) => update({ mode })}
            />
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.navStyle')}>
          {(id) => (
            <RadioChoice
              labelledBy={id}
              name="nav-style"
              columns={2}
              options={NAV_STYLES}
              value={settings.navStyle}
              label={(style) => t(`themeSettings.navStyles.${style}`)}
              onChange={(navStyle) => update({ navStyle })}
            />
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.style')}>
          {(id) => (
            <ToggleChoice
              labelledBy={id}
              options={THEME_STYLES}
              value={settings.themeStyle}
              label={(style) => t(`themeSettings.styles.${style}`)}
              onChange={(themeStyle) => update({ themeStyle })}
            />
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.colours')}>
          {(id) => <ColourSettings presetsLabelId={id} />}
        </SettingSection>
        <SettingSection title={t('themeSettings.layout')}>
          {(id) => (
            <ToggleChoice
              labelledBy={id}
              options={LAYOUT_TYPES}
              value={settings.layoutType}
              label={(layout) => t(`themeSettings.layouts.${layout}`)}
              onChange={(layoutType) => update({ layoutType })}
            />
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.header')}>
          {(id) => (
            <ToggleChoice
              labelledBy={id}
              options={HEADER_TYPES}
              value={settings.headerType}
              label={(header) => t(`themeSettings.headers.${header}`)}
              onChange={(headerType) => update({ headerType })}
            />
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.footer')}>
          {(id) => (
            <>
              <FormControlLabel
                control={<Switch checked={settings.footer} onChange={(_, footer) => update({ footer })} />}
                label={t('themeSettings.showFooter')}
              />
              <ToggleChoice
                labelledBy={id}
                options={FOOTER_TYPES}
                value={settings.footerType}
                label={(type) => t(`themeSettings.footerTypes.${type}`)}
                onChange={(footerType) => update({ footerType })}
              />
            </>
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.transition')}>
          {(id) => (
            <RadioChoice
              labelledBy={id}
              name="route-transition"
              columns={2}
              options={ROUTE_TRANSITIONS}
              value={settings.routeTransition}
              label={(transition) => t(`themeSettings.transitions.${transition}`)}
              onChange={(routeTransition) => update({ routeTransition })}
            />
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.direction')}>
          {(id) => (
            <RadioChoice
              labelledBy={id}
              name="text-direction"
              options={DIRECTIONS}
              value={direction}
              label={(choice) => t(`themeSettings.directions.${choice}`)}
              onChange={(choice) => update({ rtl: choice === 'auto' ? null : choice === 'rtl' })}
            />
          )}
        </SettingSection>
        <SettingSection title={t('themeSettings.data')}>
          {() => (
            <>
              <MockDataSwitch />
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {t('themeSettings.dataHint')}
              </Typography>
            </>
          )}
        </SettingSection>
      </Box>
      <Divider />
      <Box sx={{ px: 3, py: 2 }}>
        <Button fullWidth variant="outlined" startIcon={<RestartAltOutlined aria-hidden />} onClick={reset}>
          {t('themeSettings.reset')}
        </Button>
      </Box>
    </Drawer>
  );
}
