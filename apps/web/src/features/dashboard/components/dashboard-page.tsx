import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { useDashboard } from '../api/get-dashboard';
import { formatUpdatedAt } from '../model/format';
import type { SessionRange } from '../model/ranges';
import { hasNoSessions } from '../model/ranges';
import { AgentsCard } from './agents-card';
import { DashboardLoadFailed, DashboardStale } from './load-states';
import { SessionsCard } from './sessions-card';
import { StatCards } from './stat-cards';

/** /hostsDashboard (spec §2.2, §3, §9): sessions and agents of the last 30 days, refreshed every 120 s. */
export function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  const [range, setRange] = useState<SessionRange>('pastMonth');
  const data = dashboard.data;
  const noSessions = data !== undefined && hasNoSessions(data.recordings);

  const refresh = (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      {dashboard.dataUpdatedAt > 0 ? (
        <Typography variant="caption" sx={{ color: 'text.secondary' }} data-testid="dashboard-updated">
          {t('dashboard.updatedAt', { time: formatUpdatedAt(dashboard.dataUpdatedAt) })}
        </Typography>
      ) : null}
      <Tooltip title={t('common.refresh')}>
        <span>
          <IconButton
            aria-label={t('common.refresh')}
            onClick={() => void dashboard.refetch()}
            disabled={dashboard.isFetching}
          >
            <RefreshOutlined />
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );

  let body;
  if (dashboard.error && !data) {
    body = <DashboardLoadFailed error={dashboard.error} onRetry={() => void dashboard.refetch()} />;
  } else {
    body = (
      <>
        {dashboard.error ? <DashboardStale updatedAt={dashboard.dataUpdatedAt} /> : null}
        <StatCards data={data} />
        <Grid container spacing={{ xs: 2, md: 3 }}>
          <Grid size={{ xs: 12, xl: 7 }}>
            {noSessions ? (
              <Box data-testid="dashboard-empty">
                <EmptyState
                  icon={InsightsOutlined}
                  title={t('dashboard.empty.title')}
                  hint={t('dashboard.empty.hint')}
                />
              </Box>
            ) : (
              <SessionsCard charts={data?.recordings} range={range} onRangeChange={setRange} />
            )}
          </Grid>
          <Grid size={{ xs: 12, xl: 5 }}>
            <AgentsCard agents={data?.agents_dashboard} />
          </Grid>
        </Grid>
      </>
    );
  }

  return (
    <Box>
      <PageHeader title={t('pages.dashboard')} subtitle={t('dashboard.subtitle')} actions={refresh} />
      {body}
    </Box>
  );
}
