import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format';
import { useSecuritySettings } from '../api/security';

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Box
      component="li"
      sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, py: 0.5 }}
    >
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="caption" component="span" sx={{ fontWeight: 600, textAlign: 'end' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** The sidebar's security configuration block: single use, freshness and token lifetime. */
export function SecuritySummary() {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { data } = useSecuritySettings();
  if (!data) return null;
  const toggle = (on: boolean) => (
    <Chip
      size="small"
      label={on ? t('common.on') : t('common.off')}
      color={on ? 'warning' : 'default'}
      variant="outlined"
    />
  );
  const maxAge =
    data.effectiveTokenMaxAge > 0
      ? formatDuration(data.effectiveTokenMaxAge * 1000, i18n.language)
      : t('security.unlimited');
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography
        id={titleId}
        variant="overline"
        sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary' }}
      >
        <ShieldOutlined sx={{ fontSize: 16 }} aria-hidden />
        {t('security.title')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        <Row label={t('security.singleUse')} value={toggle(data.api_limit_single_use)} />
        <Row label={t('security.freshness')} value={toggle(data.api_limit_freshness)} />
        <Row label={t('security.tokenMaxAge')} value={maxAge} />
      </Box>
    </Box>
  );
}
