import InfoOutlined from '@mui/icons-material/InfoOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { GridActionsCellItem } from '@mui/x-data-grid';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactElement } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import { LegalHoldChip } from './legal-hold-chip';
import { NotFilmedChip } from './not-filmed';
import type { SessionRow } from '../derive';
import { isGatewayDesktop, isLive, sessionType } from '../derive';
import {
  ChannelKindLabel,
  DurationText,
  ForwardChip,
  LtrText,
  SessionSummary,
  StatusChip,
  TypeLabel,
} from './session-cells';

/** What a row's buttons ask the page to do. */
export type SessionAction = 'details' | 'watch' | 'replay';

/**
 * True when the session can be watched as it happens (spec: Watch live): live SSH, and a live
 * browser desktop run by the gateway (features/desktop's watch page). A native RDP client through
 * a tunnel has no live picture at the gateway (the agent films it): it is replayed instead.
 */
export function canWatch(row: SessionRow): boolean {
  return isLive(row) && (sessionType(row) === 'ssh' || isGatewayDesktop(row));
}

/** True when there is something to play: an SSH session's terminal, or an RDP session's video. */
export function canReplay(row: SessionRow): boolean {
  return row.has_video || row.type === 'ssh';
}

/**
 * The list's columns. Fields carry the server's sort names (started_on, ended_on, hostname, user,
 * type, kind), so the grid's sort model is what the server is asked for; status, duration and tunnel do not sort.
 */
export function useSessionColumns(
  onAction: (action: SessionAction, row: SessionRow) => void,
): GridColDef<SessionRow>[] {
  const { t } = useTranslation();
  return useMemo<GridColDef<SessionRow>[]>(
    () => [
      {
        field: 'status',
        headerName: t('sessions.columns.status'),
        sortable: false,
        width: 130,
        renderCell: ({ row }) => (
          <>
            <StatusChip live={isLive(row)} />
            <LegalHoldChip hold={row.legal_hold} />
            <NotFilmedChip row={row} />
          </>
        ),
      },
      {
        field: 'type',
        headerName: t('sessions.columns.type'),
        width: 110,
        renderCell: ({ row }) => (
          <>
            <TypeLabel kind={sessionType(row)} />
            <ForwardChip forwards={row.forwards} />
          </>
        ),
      },
      {
        // What the SSH session's first channel was (the server sorts and filters by it).
        field: 'kind',
        headerName: t('sessions.columns.kind'),
        flex: 0.8,
        minWidth: 120,
        renderCell: ({ row }) => <ChannelKindLabel row={row} />,
      },
      {
        field: 'hostname',
        headerName: t('sessions.columns.hostname'),
        flex: 1,
        // The default columns' least widths fit a 1280 px window beside the sidebar (about 910 px);
        // a longer name or address is cut with its whole text as the title (EllipsisText).
        minWidth: 100,
        valueGetter: (_value, row) => row.host.hostname,
        renderCell: ({ row }) => <LtrText text={row.host.hostname} />,
      },
      {
        field: 'user',
        headerName: t('sessions.columns.user'),
        flex: 1.3,
        minWidth: 130,
        valueGetter: (_value, row) => row.user.email,
        renderCell: ({ row }) => <LtrText text={row.user.email} />,
      },
      {
        field: 'started_on',
        headerName: t('sessions.columns.start'),
        width: 160,
        valueFormatter: (value: string) => formatDateTime(value),
      },
      {
        field: 'ended_on',
        headerName: t('sessions.columns.end'),
        width: 160,
        valueFormatter: (value: string | null) => formatDateTime(value),
      },
      {
        field: 'duration',
        headerName: t('sessions.columns.duration'),
        sortable: false,
        // Grows where there is room: a live session's "+1 hr 13 min 54 sec" is wider than 130 px.
        flex: 0.7,
        minWidth: 130,
        renderCell: ({ row }) => <DurationText row={row} />,
      },
      {
        field: 'tunnel',
        headerName: t('sessions.columns.tunnel'),
        sortable: false,
        flex: 0.8,
        minWidth: 120,
        valueFormatter: (value: string | null) => value ?? '-',
      },
      {
        // On a phone and a tablet only (instead of status, host, user and duration): one cell with all four.
        field: 'summary',
        headerName: t('sessions.columns.session'),
        sortable: false,
        flex: 1,
        minWidth: 150,
        renderCell: ({ row }) => <SessionSummary row={row} />,
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('sessions.columns.actions'),
        // Three buttons (Watch live, Replay, Details) of 36 px and the cell's padding; never hidden.
        width: 128,
        hideable: false,
        getActions: ({ row }) => {
          const who = { user: row.user.email, hostname: row.host.hostname };
          const item = (action: SessionAction, label: string, icon: ReactElement) => (
            <GridActionsCellItem
              key={action}
              icon={icon}
              label={label}
              title={label}
              onClick={() => onAction(action, row)}
            />
          );
          // Every row has the three slots, an absent action's kept empty (disabled, so the arrow
          // keys skip it; hidden, so it is neither seen nor read): each icon stands in the same
          // place in a live row and a finished one.
          const slot = (action: SessionAction) => (
            <GridActionsCellItem
              key={action}
              icon={<VisibilityOutlined />}
              label=""
              disabled
              aria-hidden
              tabIndex={-1}
              data-empty-slot={action}
              style={{ visibility: 'hidden' }}
            />
          );
          return [
            canWatch(row) ? item('watch', t('sessions.actions.watchRow', who), <VisibilityOutlined />) : slot('watch'),
            canReplay(row)
              ? item('replay', t('sessions.actions.replayRow', who), <PlayArrowOutlined />)
              : slot('replay'),
            item('details', t('sessions.actions.detailsRow', who), <InfoOutlined />),
          ];
        },
      },
    ],
    [t, onAction],
  );
}
