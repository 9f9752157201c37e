import FingerprintOutlined from '@mui/icons-material/FingerprintOutlined';
import TimerOutlined from '@mui/icons-material/TimerOutlined';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useSecuritySettings } from '../api/security';

/** Header icons for per-request (single-use) and time-limited (freshness) authentication (spec §2.5). */
export function SecurityIndicators() {
  const { t } = useTranslation();
  const { data } = useSecuritySettings();
  if (!data || (!data.api_limit_single_use && !data.api_limit_freshness)) return null;
  const indicators = [
    { on: data.api_limit_single_use, title: t('security.singleUseIndicator'), Icon: FingerprintOutlined },
    { on: data.api_limit_freshness, title: t('security.freshnessIndicator'), Icon: TimerOutlined },
  ].filter((indicator) => indicator.on);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      {indicators.map(({ title, Icon }) => (
        <Tooltip key={title} title={title}>
          <Box
            role="img"
            aria-label={title}
            tabIndex={0}
            sx={{ display: 'grid', placeItems: 'center', p: 0.75, borderRadius: 1, color: 'warning.light' }}
          >
            <Icon fontSize="small" aria-hidden />
          </Box>
        </Tooltip>
      ))}
    </Box>
  );
}
