import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';

/**
 * Room at a chart's end (the side away from the value axis) for the half of the newest date that
 * passes its point or band: without it the chart shortened that label to "Nov…" (issue 20).
 */
export const CHART_END_ROOM = 40;

/** Height of every dashboard chart, so the page does not jump when one arrives. */
export const CHART_HEIGHT = 280;
/** Room for the time axis's labels: the charts' default (25 px) is too short for Poppins, which hid them. */
export const X_AXIS_HEIGHT = 36;

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
