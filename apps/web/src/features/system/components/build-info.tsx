import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useMetadata } from '../api/metadata';

/** The sidebar's metadata block: server version, build number and build tag. */
export function BuildInfo() {
  const { t } = useTranslation();
  const titleId = useId();
  const { data } = useMetadata();
  if (!data) return null;
  const rows = [
    { label: t('metadata.version'), value: data.version },
    { label: t('metadata.build'), value: data.buildNumber },
    { label: t('metadata.buildTag'), value: data.buildTag },
  ].filter((row) => row.value !== '');
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography
        id={titleId}
        variant="overline"
        sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary' }}
      >
        <InfoOutlined sx={{ fontSize: 16 }} aria-hidden />
        {t('metadata.title')}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}>
        {rows.map((row) => (
          <Box key={row.label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="caption" sx={{ color: 'text.secondary' }}>
              {row.label}
            </Typography>
            <Typography
              component="dd"
              variant="caption"
              sx={{ m: 0, fontWeight: 600, textAlign: 'end', fontFamily: 'monospace', overflowWrap: 'anywhere' }}
            >
              {row.value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
