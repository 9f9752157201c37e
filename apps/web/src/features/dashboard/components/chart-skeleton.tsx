import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';

/** Height of every dashboard chart, so the page does not jump when one arrives. */
export const CHART_HEIGHT = 280;

/** Holds a chart's place while its code (a lazy chunk) or its data loads. */
export function ChartSkeleton() {
  const { t } = useTranslation();
  return (
    <Skeleton
      variant="rounded"
      height={CHART_HEIGHT}
      aria-label={t('common.loading')}
      role="progressbar"
      sx={{ width: '100%' }}
    />
  );
}
