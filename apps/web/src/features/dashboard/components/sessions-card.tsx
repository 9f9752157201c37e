import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { Suspense, lazy, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionCharts } from '../api/get-dashboard';
import { formatCount } from '../model/format';
import type { SessionRange } from '../model/ranges';
import { SESSION_RANGES, isSessionRange, rangeBuckets, rangeTotal, rangeUnit } from '../model/ranges';
import { CHART_HEIGHT, ChartSkeleton } from './chart-skeleton';

// MUI X Charts load with the first chart, never in the console's initial bundle.
const SessionsChart = lazy(async () => ({ default: (await import('./sessions-chart')).SessionsChart }));

/** The sessions chart: a range selector (§3, §9), the range's total and its buckets. */
export function SessionsCard(props: {
  charts: SessionCharts | undefined;
  range: SessionRange;
  onRangeChange: (range: SessionRange) => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const { charts, range } = props;
  const buckets = charts ? rangeBuckets(charts, range) : [];
  const total = charts ? rangeTotal(charts, range) : undefined;
  const emptyRange = charts !== undefined && buckets.every((bucket) => bucket.sessions === 0);

  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: { xs: 2, md: 3 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2, mb: 2 }}>
        <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
          <Typography id={titleId} variant="h3" component="h2">
            {t('dashboard.sessions.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            <Box
              component="span"
              data-testid="sessions-total"
              sx={{ typography: 'h2', color: 'text.primary', marginInlineEnd: 1 }}
            >
              {total === undefined ? '–' : formatCount(total, i18n.language)}
            </Box>
            {t(`dashboard.sessions.totalCaption.${range}`)}
          </Typography>
        </Box>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          value={range}
          aria-label={t('dashboard.sessions.rangeLabel')}
          onChange={(_event, value: unknown) => {
            if (isSessionRange(value)) props.onRangeChange(value);
          }}
          sx={{ flexWrap: 'wrap', '& .MuiToggleButton-root': { flex: { xs: '1 1 auto', sm: '0 0 auto' } } }}
        >
          {SESSION_RANGES.map((option) => (
            <ToggleButton key={option} value={option} sx={{ px: 1.5, textTransform: 'none' }}>
              {t(`dashboard.sessions.range.${option}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {charts === undefined ? (
        <ChartSkeleton />
      ) : emptyRange ? (
        <Box
          data-testid="sessions-range-empty"
          sx={{ height: CHART_HEIGHT, display: 'grid', placeItems: 'center', textAlign: 'center', px: 2 }}
        >
          <Typography sx={{ color: 'text.secondary', maxWidth: 420 }}>
            {t(`dashboard.sessions.emptyRange.${range === 'longRunning' ? 'longRunning' : 'other'}`)}
          </Typography>
        </Box>
      ) : (
        <Suspense fallback={<ChartSkeleton />}>
          <Box data-testid="sessions-chart">
            <SessionsChart buckets={buckets} unit={rangeUnit(range)} label={t('dashboard.sessions.seriesLabel')} />
          </Box>
        </Suspense>
      )}
    </Paper>
  );
}
