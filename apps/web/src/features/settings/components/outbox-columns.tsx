import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DraftsOutlined from '@mui/icons-material/DraftsOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { GridActionsCellItem } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative } from '../../../lib/dates';
import type { OutboxEntry } from '../api/list-outbox';

/** The outbox grid's columns: recipient, subject (opens the message), when, read and delete. */
export function useOutboxColumns(actions: {
  onRead: (entry: OutboxEntry) => void;
  onDelete: (entry: OutboxEntry) => void;
}): GridColDef<OutboxEntry>[] {
  const { t } = useTranslation();
  const { onRead, onDelete } = actions;
  return useMemo<GridColDef<OutboxEntry>[]>(
    () => [
      { field: 'to', headerName: t('settings.outbox.columns.to'), flex: 1.3, minWidth: 200 },
      {
        field: 'subject',
        headerName: t('settings.outbox.columns.subject'),
        flex: 2,
        minWidth: 220,
        renderCell: ({ row }) => (
          <Link component="button" type="button" onClick={() => onRead(row)} sx={{ textAlign: 'start' }}>
            {row.subject}
          </Link>
        ),
      },
      {
        field: 'created_at',
        headerName: t('settings.outbox.columns.when'),
        flex: 1,
        minWidth: 170,
        valueGetter: (value: string) => Date.parse(value),
        renderCell: ({ row }) => (
          <Box>
            <Typography variant="body2">{formatRelative(row.created_at)}</Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {formatDateTime(row.created_at)}
            </Typography>
          </Box>
        ),
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: 110,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="read"
            icon={<DraftsOutlined />}
            label={t('settings.outbox.read', { to: row.to })}
            onClick={() => onRead(row)}
          />,
          <GridActionsCellItem
            key="delete"
            icon={<DeleteOutlined />}
            label={t('settings.outbox.delete', { to: row.to })}
            onClick={() => onDelete(row)}
          />,
        ],
      },
    ],
    // t changes with the language, so times are formatted again after a switch.
    [t, onRead, onDelete],
  );
}
