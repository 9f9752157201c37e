import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import FolderOffOutlined from '@mui/icons-material/FolderOffOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactElement } from 'react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../components/copy-button';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { type SessionTransfer, useSessionTransfers } from '../api/session-transfers';
import { formatDateTime } from '../../../lib/dates';
import { formatBytes, formatClock } from '../../../lib/format';
import { timeMs } from '../derive';

const SORTS = ['time', 'path', 'size'] as const;
type TransferSort = (typeof SORTS)[number];

/** The icon of an operation: its direction for file transfers, what it did otherwise. */
function opIcon(item: SessionTransfer): ReactElement {
  const props = { fontSize: 'small', 'aria-hidden': true } as const;
  if (item.direction === 'upload') return <UploadOutlined {...props} />;
  if (item.direction === 'download') return <DownloadOutlined {...props} />;
  switch (item.op) {
    case 'rename':
      return <DriveFileMoveOutlined {...props} />;
    case 'remove':
      return <DeleteOutlined {...props} />;
    case 'mkdir':
      return <CreateNewFolderOutlined {...props} />;
    case 'rmdir':
      return <FolderOffOutlined {...props} />;
    case 'symlink':
      return <LinkOutlined {...props} />;
    case 'setstat':
      return <TuneOutlined {...props} />;
    case 'unparsable':
      return <WarningAmberOutlined {...props} />;
    case 'read':
    case 'write':
    case 'upload':
    case 'download':
    case 'open':
      return <InsertDriveFileOutlined {...props} />;
  }
}

function sorted(items: SessionTransfer[], sort: TransferSort): SessionTransfer[] {
  if (sort === 'time') return items;
  const copy = [...items];
  if (sort === 'path') copy.sort((a, b) => a.path.localeCompare(b.path));
  else copy.sort((a, b) => b.bytes - a.bytes);
  return copy;
}

/**
 * The session's file transfers (sftp and scp, as the gateway observed them): direction, path,
 * size, SHA-256 with a copy button, outcome and time; searchable by path and sortable.
 */
export function SessionTransfers({ id, startedOn, refresh }: { id: string; startedOn: string; refresh: boolean }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const snackbar = useSnackbar();
  const transfers = useSessionTransfers(id, refresh);
  const [text, setText] = useState('');
  const [sort, setSort] = useState<TransferSort>('time');
  const all = useMemo(() => transfers.data?.transfers ?? [], [transfers.data]);
  const needle = text.trim().toLowerCase();
  const shown = useMemo(
    () =>
      sorted(
        all.filter((item) => needle === '' || `${item.path} ${item.target ?? ''}`.toLowerCase().includes(needle)),
        sort,
      ),
    [all, needle, sort],
  );
  const start = timeMs(startedOn);
  const copy = async (hash: string) => {
    if (await copyText(hash)) snackbar.success(t('common.copied'));
    else snackbar.error(t('shared.copyFailed'));
  };

  return (
    <Box component="section" aria-labelledby={`transfers-${id}`}>
      <Typography id={`transfers-${id}`} variant="h3" component="h3" sx={{ fontSize: '1rem', mb: 1 }}>
        {t('sessions.transfers.title')}
      </Typography>
      {transfers.isFetching && !transfers.data ? <LinearProgress aria-label={t('common.loading')} /> : null}
      {transfers.isError ? (
        <Alert
          severity="error"
          variant="outlined"
          action={
            <Button color="inherit" size="small" onClick={() => void transfers.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('sessions.transfers.loadFailed', { message: errorText(transfers.error) })}
        </Alert>
      ) : null}
      {transfers.data && all.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('sessions.transfers.none')}
        </Typography>
      ) : null}
      {all.length > 0 ? (
        <Stack spacing={1.5}>
          <Stack direction="row" spacing={1}>
            <TextField
              type="search"
              size="small"
              label={t('sessions.transfers.search')}
              value={text}
              onChange={(event) => setText(event.target.value.slice(0, 200))}
              sx={{ flex: 1 }}
            />
            <TextField
              select
              size="small"
              label={t('sessions.transfers.sort')}
              value={sort}
              onChange={(event) => setSort(event.target.value as TransferSort)}
              sx={{ minWidth: 120 }}
            >
              {SORTS.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`sessions.transfers.sortBy.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {transfers.data?.truncated ? (
            <Alert severity="info" variant="outlined">
              {t('sessions.transfers.truncated', { count: all.length })}
            </Alert>
          ) : null}
          {shown.length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('sessions.transfers.noMatch')}
            </Typography>
          ) : null}
          <Box component="ul" aria-label={t('sessions.transfers.title')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {shown.map((item) => (
              <Box
                component="li"
                key={item.id}
                sx={{ display: 'flex', gap: 1.25, py: 1, borderTop: 1, borderColor: 'divider' }}
              >
                <Box
                  sx={{ pt: 0.25, color: 'text.secondary' }}
                  title={item.direction ? t(`sessions.transfers.direction.${item.direction}`) : undefined}
                >
                  {opIcon(item)}
                </Box>
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {t(`sessions.transfers.op.${item.op}`)}
                    {item.protocol === 'scp' ? ' · scp' : ' · sftp'}
                  </Typography>
                  {item.op !== 'unparsable' ? (
                    <Typography
                      variant="body2"
                      dir="ltr"
                      sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', textAlign: 'start' }}
                    >
                      {item.path}
                      {item.target ? ` → ${item.target}` : ''}
                    </Typography>
                  ) : null}
                  <Stack
                    direction="row"
                    spacing={1}
                    useFlexGap
                    sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 0.5 }}
                  >
                    {item.direction ? (
                      <Typography variant="caption">{formatBytes(item.bytes, t, i18n.language)}</Typography>
                    ) : null}
                    <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                      <span dir="ltr">{formatClock(item.t)}</span> ·{' '}
                      {formatDateTime(new Date(start + item.t * 1000).toISOString())}
                    </Typography>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={item.outcome === 'ok' ? 'success' : 'error'}
                      label={item.outcome === 'ok' ? t('sessions.transfers.ok') : item.outcome}
                      title={item.outcome === 'ok' ? undefined : item.outcome}
                      sx={{ maxWidth: '100%' }}
                    />
                  </Stack>
                  {item.sha256 ? (
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.25 }}>
                      <Typography
                        variant="caption"
                        dir="ltr"
                        title={item.sha256}
                        sx={{ fontFamily: 'monospace', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}
                      >
                        {`SHA-256 ${item.sha256}`}
                      </Typography>
                      <IconButton
                        size="small"
                        aria-label={t('sessions.transfers.copySha', { path: item.path })}
                        onClick={() => void copy(item.sha256 ?? '')}
                      >
                        <ContentCopyOutlined fontSize="inherit" />
                      </IconButton>
                    </Box>
                  ) : null}
                  {item.note ? (
                    <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
                      {item.note}
                    </Typography>
                  ) : null}
                </Box>
              </Box>
            ))}
          </Box>
        </Stack>
      ) : null}
    </Box>
  );
}
