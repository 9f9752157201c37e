import DnsOutlined from '@mui/icons-material/DnsOutlined';
import HistoryToggleOffOutlined from '@mui/icons-material/HistoryToggleOffOutlined';
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import TodayOutlined from '@mui/icons-material/TodayOutlined';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { IconComponent } from '../../../components/icon-type';
import type { Dashboard } from '../api/get-dashboard';
import { formatCount } from '../model/format';
import { sessionsToday } from '../model/ranges';

/** One figure: a label, the number and a line that says what it counts. */
function StatCard(props: { icon: IconComponent; label: string; value?: string; caption?: string; testId: string }) {
  const Icon = props.icon;
  const labelId = useId();
  return (
    <Paper
      variant="outlined"
      role="group"
      aria-labelledby={labelId}
      data-testid={props.testId}
      sx={{ height: '100%', containerType: 'inline-size' }}
    >
      <Box
        sx={{
          p: 2.5,
          display: 'flex',
          gap: 2,
          alignItems: 'center',
          height: '100%',
          // A narrow card (four in a row beside the sidebar, at a laptop's 1280 px) gives its words
          // the whole width: the icon goes, so no label breaks over two lines.
          '@container (max-width: 260px)': { p: 2, '& > [data-stat-icon]': { display: 'none' } },
        }}
      >
        <Box
          data-stat-icon
          sx={{
            width: 48,
            height: 48,
            flexShrink: 0,
            borderRadius: 2,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'action.hover',
            color: 'primary.main',
          }}
        >
          <Icon aria-hidden />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography id={labelId} variant="body2" sx={{ color: 'text.secondary' }}>
            {props.label}
          </Typography>
          {props.value === undefined ? (
            <Skeleton width={64} height={36} />
          ) : (
            <Typography variant="h2" component="p" data-testid={`${props.testId}-value`} sx={{ lineHeight: 1.3 }}>
              {props.value}
            </Typography>
          )}
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {props.caption ?? '\u00a0'}
          </Typography>
        </Box>
      </Box>
    </Paper>
  );
}

/** The headline figures: agents connected of enrolled, live sessions, sessions today, long running. */
export function StatCards({ data }: { data: Dashboard | undefined }) {
  const { t, i18n } = useTranslation();
  const count = (value: number | undefined) => (value === undefined ? undefined : formatCount(value, i18n.language));
  const agents = data?.agents_dashboard;
  const charts = data?.recordings;
  const cards = [
    {
      testId: 'stat-agents',
      icon: DnsOutlined,
      label: t('dashboard.stats.agents'),
      value: agents ? `${count(agents.connected)} / ${count(agents.total)}` : undefined,
      caption: agents ? t('dashboard.stats.agentsCaption', { total: count(agents.total) }) : undefined,
    },
    {
      testId: 'stat-live',
      icon: PlayCircleOutlined,
      label: t('dashboard.stats.live'),
      value: count(charts?.live),
      caption: t('dashboard.stats.liveCaption'),
    },
    {
      testId: 'stat-today',
      icon: TodayOutlined,
      label: t('dashboard.stats.today'),
      value: count(charts ? sessionsToday(charts) : undefined),
      caption: t('dashboard.stats.todayCaption'),
    },
    {
      testId: 'stat-long-running',
      icon: HistoryToggleOffOutlined,
      label: t('dashboard.stats.longRunning'),
      value: count(charts?.totalLongRunning),
      caption: t('dashboard.stats.longRunningCaption'),
    },
  ];
  return (
    <Grid container spacing={{ xs: 2, md: 3 }} sx={{ mb: { xs: 2, md: 3 } }}>
      {cards.map((card) => (
        <Grid key={card.testId} size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard {...card} />
        </Grid>
      ))}
    </Grid>
  );
}
