import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PolicyOutlined from '@mui/icons-material/PolicyOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import type { GridPaginationModel } from '@mui/x-data-grid';
import { useCallback, useEffect, useEffectEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState } from '../../../components/data-table/table-states';
import { useCursorPaging } from '../../../components/data-table/use-cursor-paging';
import { PageHeader } from '../../../components/page-header';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { useErrorText } from '../../../components/use-error-text';
import { useExportAudit } from '../api/export-audit';
import type { AuditRow, AuditScreenFilters } from '../api/list-audit';
import { useAuditList } from '../api/list-audit';
import { AuditEntryDrawer } from './audit-entry-drawer';
import { AuditFiltersBar } from './audit-filters';
import { AuditGrid } from './audit-grid';
import { AuditTabs } from './audit-tabs';
import { useAuditFilters } from './use-audit-filters';

type Typed = Pick<AuditScreenFilters, 'q' | 'actor' | 'target'>;

/** /audit (list-audit-log): every audit entry, filtered, paged by the server, exported. */
export function AuditPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const snackbar = useSnackbar();
  const { filters, change, clear, filtered } = useAuditFilters();
  const [typed, setTyped] = useState<Typed>({ q: filters.q, actor: filters.actor, target: filters.target });
  const settled = useDebouncedValue(typed, 350);
  const [selected, setSelected] = useState<AuditRow | null>(null);
  const [exportAnchor, setExportAnchor] = useState<HTMLElement | null>(null);
  const exportMenuId = useId();
  const exporter = useExportAudit();

  // Typed text reaches the URL (and the server) once typing pauses; a URL change (Back, Clear) reaches the boxes.
  const writeTyped = useEffectEvent((value: Typed) => {
    const patch: Partial<Typed> = {};
    for (const key of ['q', 'actor', 'target'] as const)
      if (value[key].trim() !== filters[key]) patch[key] = value[key].trim();
    if (Object.keys(patch).length > 0) change(patch);
  });
  useEffect(() => writeTyped(settled), [settled]);
  const urlTyped = `${filters.q}\n${filters.actor}\n${filters.target}`;
  const [seenUrl, setSeenUrl] = useState(urlTyped);
  if (seenUrl !== urlTyped) {
    setSeenUrl(urlTyped);
    setTyped({ q: filters.q, actor: filters.actor, target: filters.target });
  }

  const { paging, cursor, onChange: onPaging } = useCursorPaging(JSON.stringify(filters));
  const list = useAuditList(filters, paging.pageSize, cursor);
  const nextCursor = list.data?.next_cursor ?? null;
  const onPagingChange = useCallback(
    (model: GridPaginationModel) => onPaging(model, nextCursor),
    [onPaging, nextCursor],
  );
  const rows = list.data?.entries ?? [];
  const nothingAtAll = list.isSuccess && rows.length === 0 && !filtered && paging.page === 0;

  const runExport = (format: 'csv' | 'jsonl') => {
    setExportAnchor(null);
    exporter.mutate(
      { filters, format },
      {
        onSuccess: () => snackbar.success(t('audit.export.done')),
        onError: (error) => snackbar.error(t('audit.export.failed', { message: errorText(error) })),
      },
    );
  };

  return (
    <Box>
      <PageHeader
        title={t('pages.audit')}
        subtitle={t('audit.subtitle')}
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              startIcon={<DownloadOutlined />}
              aria-haspopup="menu"
              aria-controls={exportAnchor ? exportMenuId : undefined}
              aria-expanded={exportAnchor ? 'true' : undefined}
              onClick={(event) => setExportAnchor(event.currentTarget)}
              disabled={exporter.isPending}
            >
              {exporter.isPending ? t('audit.export.running') : t('audit.export.button')}
            </Button>
            <Menu
              id={exportMenuId}
              anchorEl={exportAnchor}
              open={exportAnchor !== null}
              onClose={() => setExportAnchor(null)}
            >
              <MenuItem onClick={() => runExport('csv')}>{t('audit.export.csv')}</MenuItem>
              <MenuItem onClick={() => runExport('jsonl')}>{t('audit.export.jsonl')}</MenuItem>
            </Menu>
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
      <AuditTabs current="entries" />
      <AuditFiltersBar
        filters={filters}
        typed={typed}
        onType={(patch) => setTyped((current) => ({ ...current, ...patch }))}
        onChange={change}
        filtered={filtered}
        onClear={() => {
          setTyped({ q: '', actor: '', target: '' });
          clear();
        }}
      />
      {list.isError ? (
        <Box sx={{ mb: 2 }}>
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        </Box>
      ) : null}
      {nothingAtAll ? (
        <EmptyState icon={PolicyOutlined} title={t('audit.empty.title')} hint={t('audit.empty.hint')} />
      ) : list.isError && !list.data ? null : (
        <Paper variant="outlined" sx={{ height: 'max(460px, calc(100vh - 360px))' }}>
          <AuditGrid
            rows={rows}
            loading={list.isFetching}
            paging={paging}
            hasNextPage={nextCursor !== null}
            onPagingChange={onPagingChange}
            order={filters.order}
            onOrderChange={(order) => change({ order })}
            onOpen={setSelected}
            noRowsLabel={filtered ? t('audit.noMatch') : t('audit.noneHere')}
          />
        </Paper>
      )}
      <AuditEntryDrawer row={selected} onClose={() => setSelected(null)} />
    </Box>
  );
}
