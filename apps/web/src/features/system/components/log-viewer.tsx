import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import type { KeyboardEvent } from 'react';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../components/copy-button';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { OtherComponentError, usePodLogs } from '../api/pod-logs';
import type { LevelFilter, LogLevel } from '../model/log-lines';
import { filterLogLines, logFileName, logFileText, parseLogLines, plainLogText } from '../model/log-lines';
import { componentTitle } from './component-names';
import { LogLineRow, lineTime } from './log-line-row';
import { LogToolbar } from './log-toolbar';
import { formatCount } from '../../../lib/format';

/** Scrolled within this many pixels of the end counts as at the end (follow stays on). */
const AT_END_PX = 24;

function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A component's recent log (admin role only): parsed lines with local time, coloured level and
 * message, or the raw JSON; search, level filter, follow (new lines every 5 s, newest kept in
 * view; scrolling up stops following), copy and download of what is shown. `/` focuses the search.
 */
export function LogViewer({ name }: { name: string }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => formatCount(value, i18n.language);
  const snackbar = useSnackbar();
  const [follow, setFollow] = useState(true);
  const [search, setSearch] = useState('');
  const [level, setLevel] = useState<LevelFilter>('all');
  const [raw, setRaw] = useState(false);
  const logs = usePodLogs(name, true, follow);
  const scroller = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const lines = useMemo(() => parseLogLines(logs.data?.logs ?? []), [logs.data]);
  const shown = useMemo(() => filterLogLines(lines, level, search), [lines, level, search]);
  const levelText = useCallback((value: LogLevel) => t(`systemStatus.logs.levelNames.${value}`), [t]);
  const title = componentTitle(name, t);

  // Following keeps the newest line in view; the first answer opens at the end too.
  const opened = useRef(false);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box || shown.length === 0) return;
    if (follow || !opened.current) box.scrollTop = box.scrollHeight;
    opened.current = true;
  }, [shown, follow, raw]);

  const onScroll = () => {
    const box = scroller.current;
    if (!box || !follow) return;
    if (box.scrollHeight - box.scrollTop - box.clientHeight > AT_END_PX) setFollow(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
    if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      searchRef.current?.focus();
    }
  };

  const copy = async () => {
    const text = plainLogText(shown, raw, lineTime, levelText);
    if (await copyText(text)) snackbar.success(t('common.copied'));
    else snackbar.error(t('systemStatus.logs.copyFailed'));
  };

  const clearFilters = () => {
    setSearch('');
    setLevel('all');
  };

  let body;
  if (logs.isPending) {
    body = (
      <Box sx={{ p: 1.5, display: 'grid', gap: 0.75 }} aria-busy="true" aria-label={t('common.loading')}>
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} variant="text" width={`${60 + ((i * 13) % 40)}%`} />
        ))}
      </Box>
    );
  } else if (logs.isError && !logs.data) {
    const message =
      logs.error instanceof OtherComponentError
        ? t('systemStatus.logs.otherComponent', {
            requested: logs.error.requested,
            answered: logs.error.answered ?? '-',
          })
        : t('systemStatus.logs.loadFailed', { message: errorText(logs.error, t('message.somethingWentWrong')) });
    body = (
      <Alert
        severity="error"
        variant="outlined"
        sx={{ m: 1.5 }}
        action={
          <Button color="inherit" size="small" onClick={() => void logs.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {message}
      </Alert>
    );
  } else if (lines.length === 0) {
    body = (
      <Box sx={{ p: 3, textAlign: 'center' }} data-testid="logs-empty">
        <Typography variant="h4" component="p">
          {t('systemStatus.logs.empty.title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
          {t('systemStatus.logs.empty.hint')}
        </Typography>
      </Box>
    );
  } else if (shown.length === 0) {
    body = (
      <Box sx={{ p: 3, textAlign: 'center' }} data-testid="logs-no-match">
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('systemStatus.logs.noMatch')}
        </Typography>
        <Button size="small" onClick={clearFilters}>
          {t('systemStatus.logs.clearFilters')}
        </Button>
      </Box>
    );
  } else {
    body = (
      <Box
        component="ol"
        dir="ltr"
        aria-label={t('systemStatus.logs.linesLabel', { component: title })}
        data-testid="log-lines"
        sx={{ listStyle: 'none', m: 0, py: 0.5, px: 0, textAlign: 'start' }}
      >
        {shown.map((line) => (
          <LogLineRow key={line.index} line={line} raw={raw} search={search} levelText={levelText(line.level)} />
        ))}
      </Box>
    );
  }

  return (
    <Box onKeyDown={onKeyDown}>
      <LogToolbar
        search={search}
        onSearch={setSearch}
        searchRef={searchRef}
        level={level}
        onLevel={setLevel}
        raw={raw}
        onRaw={setRaw}
        follow={follow}
        onFollow={setFollow}
        canExport={shown.length > 0}
        onCopy={() => void copy()}
        onDownload={() => saveFile(logFileName(name, new Date()), logFileText(shown))}
      />
      {logs.isError && logs.data ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 1.5 }}>
          {t('systemStatus.logs.refreshFailed', { time: dayjs(logs.dataUpdatedAt).format('LTS') })}
        </Alert>
      ) : null}
      <Box
        ref={scroller}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-label={t('systemStatus.logs.linesLabel', { component: title })}
        sx={{
          height: { xs: '55vh', md: 'min(62vh, 640px)' },
          minHeight: 240,
          overflow: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: (theme) => (theme.palette.mode === 'dark' ? 'rgba(0,0,0,0.28)' : 'grey.50'),
          fontFamily: '"JetBrains Mono", "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace',
          fontSize: '0.78rem',
          lineHeight: 1.55,
        }}
      >
        {body}
      </Box>
      <Typography
        variant="caption"
        sx={{ color: 'text.secondary', display: 'block', mt: 0.75 }}
        data-testid="log-count"
      >
        {logs.data
          ? `${t('systemStatus.logs.count', { shown: number(shown.length), total: number(lines.length) })} · ${t(
              'systemStatus.updatedAt',
              { time: dayjs(logs.dataUpdatedAt).format('LTS') },
            )}`
          : '\u00a0'}
      </Typography>
    </Box>
  );
}
