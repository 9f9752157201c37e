import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { keyStatus } from '../../../components/key-limits/key-limits';
import { formatDateTime, formatRelative } from '../../../lib/dates';
import type { RowSummary } from '../../../components/data-table/data-table';
import { SummaryCell } from '../../../components/data-table/summary-cell';
import type { KeyItem } from '../api/list-keys';

/** A main line with a quieter second line under it. */
function TwoLines({ main, sub, chip }: { main: string; sub?: string; chip?: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Box>
        <Typography variant="body2">{main}</Typography>
        {sub ? (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {sub}
          </Typography>
        ) : null}
      </Box>
      {chip ? <Chip size="small" color="error" variant="outlined" label={chip} /> : null}
    </Box>
  );
}

/** When a key expires (relative, with the date), marked once it has. */
function expiry(row: KeyItem, t: TFunction) {
  const expired = keyStatus(row, Date.now()) === 'expired';
  return (
    <TwoLines
      main={t(expired ? 'registrationKeys.expiredAgo' : 'registrationKeys.expiresIn', {
        when: formatRelative(row.expires_at),
      })}
      sub={formatDateTime(row.expires_at)}
      {...(expired ? { chip: t('keyLimits.status.expired') } : {})}
    />
  );
}

/** Uses left of uses, marked once used up. */
function UsesLeft({ row, labelled = false }: { row: KeyItem; labelled?: boolean }) {
  const { t } = useTranslation();
  return (
    <TwoLines
      main={t(labelled ? 'registrationKeys.usesLeftLine' : 'registrationKeys.usesLeft', {
        left: row.uses_left,
        uses: row.uses,
      })}
      {...(row.uses_left <= 0 ? { chip: t('keyLimits.status.usedUp') } : {})}
    />
  );
}

/** Below lg, a key in one cell: description, expiry, uses left, creator and last use (sorted by description). */
export function useKeySummary(): RowSummary<KeyItem> {
  const { t } = useTranslation();
  return useMemo<RowSummary<KeyItem>>(
    () => ({
      header: t('registrationKeys.columns.description'),
      sortValue: (row) => row.description,
      render: (row) => (
        <SummaryCell
          title={row.description}
          lines={[
            <Box key="expiry">{expiry(row, t)}</Box>,
            <UsesLeft key="uses" row={row} labelled />,
            `${t('registrationKeys.columns.createdBy')}: ${row.created_by ?? '-'} · ${formatDateTime(row.created)}`,
            `${t('registrationKeys.columns.lastUsed')}: ${
              row.last_used_at ? formatDateTime(row.last_used_at) : t('registrationKeys.neverUsed')
            }`,
          ]}
        />
      ),
    }),
    [t],
  );
}

/**
 * The keys grid's columns: description, expiry (relative, with the date; expired keys marked),
 * uses left of uses (used-up keys marked), who created it and when, last use, delete.
 */
export function useKeyColumns(onDelete: (key: KeyItem) => void): GridColDef<KeyItem>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<KeyItem>[]>(
    () => [
      { field: 'description', headerName: t('registrationKeys.columns.description'), flex: 2, minWidth: 180 },
      {
        field: 'expires_at',
        headerName: t('registrationKeys.columns.expires'),
        flex: 1.4,
        minWidth: 170,
        valueGetter: (value: string) => Date.parse(value),
        renderCell: ({ row }) => expiry(row, t),
      },
      {
        field: 'uses_left',
        headerName: t('registrationKeys.columns.usesLeft'),
        flex: 1,
        minWidth: 150,
        renderCell: ({ row }) => <UsesLeft row={row} />,
      },
      {
        field: 'created',
        headerName: t('registrationKeys.columns.created'),
        flex: 1,
        minWidth: 150,
        valueFormatter: (value: string) => formatDateTime(value),
      },
      {
        field: 'created_by',
        headerName: t('registrationKeys.columns.createdBy'),
        flex: 1.3,
        minWidth: 160,
        valueFormatter: (value: string | null) => value ?? '-',
      },
      {
        field: 'last_used_at',
        headerName: t('registrationKeys.columns.lastUsed'),
        flex: 1,
        minWidth: 150,
        valueFormatter: (value: string | null) => (value ? formatDateTime(value) : t('registrationKeys.neverUsed')),
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: 90,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="delete"
            icon={<DeleteOutlined />}
            label={t('registrationKeys.delete', { description: row.description })}
            onClick={() => onDelete(row)}
          />,
        ],
      },
    ],
    // t changes with the language, so dates are formatted again after a switch.
    [t, onDelete],
  );
}
