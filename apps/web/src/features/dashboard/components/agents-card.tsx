import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Suspense, lazy, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dashboard } from '../api/get-dashboard';
import { CHART_HEIGHT, ChartSkeleton } from './chart-skeleton';

// Shares the lazy MUI X Charts chunk with the sessions chart.
const AgentsChart = lazy(async () => ({ default: (await import('./agents-chart')).AgentsChart }));

/** Agents connected and enrolled over the last 30 days. */
export function AgentsCard({ agents }: { agents: Dashboard['agents_dashboard'] | undefined }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: { xs: 2, md: 3 } }}>
      <Typography id={titleId} variant="h3" component="h2">
        {t('dashboard.agents.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('dashboard.agents.subtitle')}
      </Typography>
      {agents === undefined ? (
        <ChartSkeleton />
      ) : agents.total === 0 && agents.days.every((day) => day.total === 0) ? (
        <Box
          data-testid="agents-empty"
          sx={{ height: CHART_HEIGHT, display: 'grid', placeItems: 'center', textAlign: 'center', px: 2 }}
        >
          <Typography sx={{ color: 'text.secondary', maxWidth: 420 }}>{t('dashboard.agents.empty')}</Typography>
        </Box>
      ) : (
        <Suspense fallback={<ChartSkeleton />}>
          <Box data-testid="agents-chart">
            <AgentsChart days={agents.days} />
          </Box>
        </Suspense>
      )}
    </Paper>
  );
}
