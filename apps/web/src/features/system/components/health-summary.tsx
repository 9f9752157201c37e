import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineOutlined from '@mui/icons-material/ErrorOutlineOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { Pod } from '../api/list-pods';
import type { HealthSummary as Summary } from '../model/health';
import { healthSummary } from '../model/health';
import { componentTitle } from './component-names';
import { formatCount, listFormat } from '../../../lib/format';

const LOOK = {
  Healthy: { color: 'success', icon: CheckCircleOutlined },
  Problem: { color: 'warning', icon: WarningAmberOutlined },
  Problems: { color: 'error', icon: ErrorOutlineOutlined },
} as const satisfies Record<Summary, { color: string; icon: unknown }>;

/**
 * The system health summary of spec §4 (Healthy, Problem, Problems) with how many components
 * are not Running and which. A live region: a change is read out.
 */
export function HealthSummaryBanner({ pods, updatedAt }: { pods: readonly Pod[] | undefined; updatedAt: number }) {
  const { t, i18n } = useTranslation();
  if (!pods) return <Skeleton variant="rounded" height={88} sx={{ mb: 3 }} />;
  const { summary, unhealthy } = healthSummary(pods);
  const { color, icon: Icon } = LOOK[summary];
  const number = (value: number) => formatCount(value, i18n.language);
  const names = listFormat(i18n.language, { type: 'conjunction' }).format(
    pods.filter((pod) => pod.status !== 'Running').map((pod) => componentTitle(pod.name, t)),
  );
  return (
    <Paper
      variant="outlined"
      role="status"
      data-testid="health-summary"
      data-summary={summary}
      sx={(theme) => ({
        p: { xs: 2, sm: 2.5 },
        mb: 3,
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        columnGap: 2,
        rowGap: 1,
        borderColor: theme.palette[color].main,
        bgcolor: alpha(theme.palette[color].main, theme.palette.mode === 'dark' ? 0.12 : 0.06),
      })}
    >
      <Icon sx={{ fontSize: 40, color: `${color}.main`, flexShrink: 0 }} aria-hidden />
      <Box sx={{ minWidth: 0, flex: '1 1 240px' }}>
        <Typography variant="h2" component="p" data-testid="health-summary-title">
          {t(`health.${summary}`)}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
          {unhealthy === 0
            ? t('systemStatus.summary.allRunning', { total: number(pods.length) })
            : t('systemStatus.summary.notRunning', {
                unhealthy: number(unhealthy),
                total: number(pods.length),
                names,
              })}
        </Typography>
      </Box>
      {updatedAt > 0 ? (
        <Typography variant="caption" sx={{ color: 'text.secondary' }} data-testid="status-updated">
          {t('systemStatus.updatedAt', { time: dayjs(updatedAt).format('LTS') })}
        </Typography>
      ) : null}
    </Paper>
  );
}
