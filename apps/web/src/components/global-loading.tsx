import LinearProgress from '@mui/material/LinearProgress';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/** A thin progress bar while any query or mutation is in flight (spec §4 global status). */
export function GlobalLoading() {
  const { t } = useTranslation();
  const busy = useIsFetching() + useIsMutating() > 0;
  if (!busy) return null;
  return (
    <LinearProgress
      aria-label={t('common.loading')}
      sx={{ position: 'absolute', insetInline: 0, bottom: 0, height: 2, zIndex: 1 }}
    />
  );
}
