import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '../../../components/data-table/table-states';
import { PageHeader } from '../../../components/page-header';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { useErrorText } from '../../../components/use-error-text';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import { watchDesktopPath } from '../../desktop/feature';
import type { SessionSort } from '../api/list-sessions';
import { useSessionList } from '../api/list-sessions';
import type { SessionRow } from '../derive';
import { isGatewayDesktop } from '../derive';
import { playerPath } from '../player-path';
import type { SessionAction } from './session-columns';
import { SessionDetailDrawer } from './session-detail-drawer';
import { type HoldTarget, LegalHoldDialog } from './legal-hold-dialog';
import { SessionFiltersBar } from './session-filters';
import { SessionsGrid } from './sessions-grid';
import { TerminateDialog } from './terminate-dialog';
import { useCursorPaging } from './use-cursor-paging';
import { useSessionFilters } from './use-session-filters';

const SORTS: readonly string[] = ['started_on', 'ended_on', 'hostname', 'user', 'type'];

/** /recordings, /recordings/sessions, /sessions (list-recording): recorded and live sessions. */
export function SessionsPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { user } = useSession();
  const { filters, change, clear, filtered } = useSessionFilters();
  const [search, setSearch] = useState(filters.q);
  const q = useDebouncedValue(search.trim(), 350);
  const [selected, setSelected] = useState<SessionRow | null>(null);
  const [terminating, setTerminating] = useState<SessionRow | null>(null);
  const [holding, setHolding] = useState<HoldTarget | null>(null);

  // The typed text reaches the URL (and the server) once typing pauses; a URL change (Back, Clear) reaches the box.
  const writeSearch = useEffectEvent((settled: string) => {
    if (settled !== filters.q) change({ q: settled });
  });
  useEffect(() => writeSearch(q), [q]);
  const [urlQ, setUrlQ] = useState(filters.q);
  if (urlQ !== filters.q) {
    setUrlQ(filters.q);
    if (search.trim() !== filters.q) setSearch(filters.q);
  }

  const { sort, order, ...listFilters } = filters;
  const pagingKey = JSON.stringify(filters);
  const { paging, cursor, onChange: onPaging } = useCursorPaging(pagingKey);
  // The refresh timer pauses while a dialog is open (spec §4 ignore-refresh).
  const refresh = terminating === null && holding === null;
  const list = useSessionList({ ...listFilters, sort, order, pageSize: paging.pageSize, cursor }, refresh);
  const nextCursor = list.data?.next_cursor ?? null;

  const onPagingChange = useCallback(
    (model: GridPaginationModel) => onPaging(model, nextCursor),
    [onPaging, nextCursor],
  );
  const sortModel = useMemo<GridSortModel>(() => [{ field: sort, sort: order }], [sort, order]);
  const onSortChange = useCallback(
    (model: GridSortModel) => {
      const item = model[0];
      if (item && SORTS.includes(item.field))
        change({ sort: item.field as SessionSort, order: item.sort === 'asc' ? 'asc' : 'desc' });
      else change({ sort: 'started_on', order: 'desc' });
    },
    [change],
  );
  const open = useCallback(
    (row: SessionRow, live: boolean) =>
      void navigate(live && isGatewayDesktop(row) ? watchDesktopPath(row.id) : playerPath(row.id, live)),
    [navigate],
  );
  const onAction = useCallback(
    (action: SessionAction, row: SessionRow) => {
      if (action === 'details') setSelected(row);
      else open(row, action === 'watch');
    },
    [open],
  );
  const clearAll = useCallback(() => {
    setSearch('');
    clear();
  }, [clear]);

  const rows = list.data?.recordings ?? [];
  const nothingAtAll = list.isSuccess && rows.length === 0 && !filtered && paging.page === 0;
  const canTerminate = hasPermission(user, ['terminate-session']);
  const canHold = hasPermission(user, ['manage-legal-hold']);

  return (
    <Box>
      <PageHeader
        title={t('pages.sessions')}
        subtitle={t('sessions.subtitle')}
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button component={RouterLink} to="/recordings/search" startIcon={<ManageSearchOutlined />}>
              {t('recordingSearch.open')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<RefreshOutlined />}
              onClick={() => void list.refetch()}
              disabled={list.isFetching}
            >
              {t('common.refresh')}
            </Button>
          </Box>
        }
      />
      <SessionFiltersBar
        filters={listFilters}
        search={search}
        onSearch={setSearch}
        onChange={change}
        filtered={filtered}
        onClear={clearAll}
      />
      {list.isError ? (
        <Alert
          severity="error"
          variant="outlined"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('sessions.loadFailed', { message: errorText(list.error) })}
        </Alert>
      ) : null}
      {nothingAtAll ? (
        <EmptyState icon={PlayCircleOutlined} title={t('sessions.empty.title')} hint={t('sessions.empty.hint')} />
      ) : list.isError && !list.data ? null : (
        <Paper variant="outlined" sx={{ height: 'max(460px, calc(100vh - 330px))' }}>
          <SessionsGrid
            rows={rows}
            loading={list.isFetching}
            paging={paging}
            hasNextPage={nextCursor !== null}
            onPagingChange={onPagingChange}
            sort={sortModel}
            onSortChange={onSortChange}
            onAction={onAction}
            noRowsLabel={filtered ? t('sessions.noMatch') : t('sessions.noneHere')}
          />
        </Paper>
      )}
      <SessionDetailDrawer
        row={selected}
        refresh={refresh}
        canTerminate={canTerminate}
        onClose={() => setSelected(null)}
        onWatch={(row) => open(row, true)}
        onReplay={(row) => open(row, false)}
        onTerminate={setTerminating}
        canHold={canHold}
        onHold={(row, action) => setHolding({ row, action })}
      />
      <TerminateDialog row={terminating} onClose={() => setTerminating(null)} />
      <LegalHoldDialog target={holding} onClose={() => setHolding(null)} />
    </Box>
  );
}
