import Box from '@mui/material/Box';
import dayjs from 'dayjs';
import { memo } from 'react';
import type { LogLevel, LogLine } from '../model/log-lines';
import { matchRanges } from '../model/log-lines';

/** The colour of each level: trace and debug quiet, info blue, warnings amber, errors red. */
export const LEVEL_COLOR: Record<LogLevel, string> = {
  trace: 'text.disabled',
  debug: 'text.secondary',
  info: 'info.main',
  warn: 'warning.main',
  error: 'error.main',
  fatal: 'error.main',
  unknown: 'text.secondary',
};

/** A line's time in the browser's zone: the time of day, with the date when it is not today. */
export function lineTime(line: LogLine): string {
  if (line.time === null) return '';
  const at = dayjs(line.time);
  return at.format(at.isSame(dayjs(), 'day') ? 'LTS' : 'L LTS');
}

/** Text with the search's matches marked. */
export function Highlighted({ text, search }: { text: string; search: string }) {
  const ranges = matchRanges(text, search);
  if (ranges.length === 0) return <>{text}</>;
  const parts = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <Box component="mark" key={start} sx={{ bgcolor: 'warning.light', color: 'common.black', borderRadius: 0.5 }}>
        {text.slice(start, end)}
      </Box>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

/**
 * One log line: in the readable form time, coloured level, message and details (on narrow screens
 * the message goes under time and level); in the raw form the JSON as the server kept it.
 */
export const LogLineRow = memo(function LogLineRow(props: {
  line: LogLine;
  raw: boolean;
  search: string;
  levelText: string;
}) {
  const { line, raw, search } = props;
  const severe = line.level === 'error' || line.level === 'fatal';
  return (
    <Box
      component="li"
      data-level={line.level}
      sx={{
        px: 1.5,
        py: 0.375,
        borderInlineStart: 3,
        borderColor: severe ? 'error.main' : line.level === 'warn' ? 'warning.main' : 'transparent',
        bgcolor: line.level === 'fatal' ? 'action.selected' : undefined,
        '&:hover': { bgcolor: 'action.hover' },
        ...(raw
          ? { whiteSpace: 'pre-wrap', wordBreak: 'break-all' }
          : {
              display: 'grid',
              gridTemplateColumns: { xs: 'auto 1fr', md: 'minmax(7.5em, auto) 5.5em 1fr' },
              columnGap: 1.5,
              alignItems: 'baseline',
            }),
      }}
    >
      {raw ? (
        <Highlighted text={line.raw} search={search} />
      ) : (
        <>
          <Box component="span" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
            {line.time === null ? null : (
              <time dateTime={new Date(line.time).toISOString()} title={dayjs(line.time).format('LLLL')}>
                {lineTime(line)}
              </time>
            )}
          </Box>
          <Box
            component="span"
            sx={{ color: LEVEL_COLOR[line.level], fontWeight: severe || line.level === 'warn' ? 700 : 600 }}
          >
            {props.levelText}
          </Box>
          <Box
            component="span"
            sx={{ gridColumn: { xs: '1 / -1', md: 'auto' }, minWidth: 0, overflowWrap: 'anywhere' }}
          >
            <Highlighted text={line.message} search={search} />
            {line.details.length > 0 ? (
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {line.details.map((detail, i) => (
                  <Box
                    component="span"
                    key={i}
                    sx={{ marginInlineStart: 1.5, display: 'inline-block', maxWidth: '100%' }}
                  >
                    <Highlighted text={detail} search={search} />
                  </Box>
                ))}
              </Box>
            ) : null}
          </Box>
        </>
      )}
    </Box>
  );
});
