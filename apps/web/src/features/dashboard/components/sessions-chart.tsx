import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartBucket } from '../api/get-dashboard';
import { formatBucketLong, formatBucketTick, formatCount, spansYears } from '../model/format';
import type { BucketUnit } from '../model/ranges';
import { CHART_END_ROOM, CHART_HEIGHT, X_AXIS_HEIGHT } from './chart-skeleton';

/** Past this many buckets (the "all" range over months) an area reads better than hairline bars. */
const MAX_BARS = 62;

/**
 * Sessions per bucket (MUI X Charts; this file is a lazy chunk, see sessions-card). Right to left,
 * time runs from the right and the value axis sits on the right.
 */
export function SessionsChart(props: { buckets: readonly ChartBucket[]; unit: BucketUnit; label: string }) {
  const { i18n } = useTranslation();
  const theme = useTheme();
  const language = i18n.language;
  const rtl = theme.direction === 'rtl';
  // Right to left, the buckets are given newest first rather than the axis reversed: on a reversed
  // axis the chart thinned its date labels wrongly and some overlapped (issue 20).
  const ordered = useMemo(() => (rtl ? [...props.buckets].reverse() : props.buckets), [props.buckets, rtl]);
  const starts = useMemo(() => ordered.map((bucket) => bucket.start), [ordered]);
  const values = useMemo(() => ordered.map((bucket) => bucket.sessions), [ordered]);
  const withYear = spansYears(starts);

  const xAxis = {
    data: starts,
    height: X_AXIS_HEIGHT,
    tickLabelMinGap: 12,
    valueFormatter: (start: string, context: { location: string }) =>
      context.location === 'tooltip'
        ? formatBucketLong(start, props.unit)
        : formatBucketTick(start, props.unit, language, withYear),
  };
  const yAxis = [
    {
      position: rtl ? ('right' as const) : ('left' as const),
      width: 'auto' as const,
      tickMinStep: 1,
      valueFormatter: (value: number) => formatCount(value, language),
    },
  ];
  const margin = rtl ? { left: CHART_END_ROOM } : { right: CHART_END_ROOM };
  const series = {
    data: values,
    label: props.label,
    color: theme.palette.primary.main,
    valueFormatter: (value: number | null) => formatCount(value ?? 0, language),
  };

  if (values.length > MAX_BARS) {
    return (
      <LineChart
        height={CHART_HEIGHT}
        margin={margin}
        xAxis={[{ ...xAxis, scaleType: 'point' }]}
        yAxis={yAxis}
        series={[{ ...series, area: true, showMark: false, curve: 'linear' }]}
        hideLegend
        grid={{ horizontal: true }}
      />
    );
  }
  return (
    <BarChart
      height={CHART_HEIGHT}
      margin={margin}
      xAxis={[{ ...xAxis, scaleType: 'band' }]}
      yAxis={yAxis}
      series={[series]}
      hideLegend
      grid={{ horizontal: true }}
      borderRadius={4}
    />
  );
}
