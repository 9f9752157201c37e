import { useTheme } from '@mui/material/styles';
import { LineChart } from '@mui/x-charts/LineChart';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgentDay } from '../api/get-dashboard';
import { formatBucketLong, formatBucketTick, formatCount } from '../model/format';
import { CHART_END_ROOM, CHART_HEIGHT, X_AXIS_HEIGHT } from './chart-skeleton';

/** Agents connected (at some time that day) and enrolled (at its end), per day; a lazy chunk. */
export function AgentsChart({ days }: { days: readonly AgentDay[] }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const language = i18n.language;
  const rtl = theme.direction === 'rtl';
  // Right to left, newest first rather than a reversed axis, whose date labels overlapped (issue 20).
  const sorted = useMemo(
    () => [...days].sort((a, b) => (rtl ? -1 : 1) * (Date.parse(a.start) - Date.parse(b.start))),
    [days, rtl],
  );
  const count = (value: number | null) => formatCount(value ?? 0, language);
  return (
    <LineChart
      height={CHART_HEIGHT}
      margin={rtl ? { left: CHART_END_ROOM } : { right: CHART_END_ROOM }}
      xAxis={[
        {
          scaleType: 'point',
          data: sorted.map((day) => day.start),
          height: X_AXIS_HEIGHT,
          tickLabelMinGap: 12,
          valueFormatter: (start: string, context: { location: string }) =>
            context.location === 'tooltip' ? formatBucketLong(start, 'day') : formatBucketTick(start, 'day', language),
        },
      ]}
      yAxis={[
        {
          position: rtl ? 'right' : 'left',
          width: 'auto',
          tickMinStep: 1,
          valueFormatter: (value: number) => count(value),
        },
      ]}
      series={[
        {
          id: 'total',
          label: t('dashboard.agents.total'),
          data: sorted.map((day) => day.total),
          color: theme.palette.text.secondary,
          showMark: false,
          valueFormatter: count,
        },
        {
          id: 'connected',
          label: t('dashboard.agents.connected'),
          data: sorted.map((day) => day.connected),
          color: theme.palette.success.main,
          area: true,
          showMark: false,
          valueFormatter: count,
        },
      ]}
      grid={{ horizontal: true }}
      slotProps={{ legend: { direction: 'horizontal', position: { vertical: 'top', horizontal: 'end' } } }}
    />
  );
}
