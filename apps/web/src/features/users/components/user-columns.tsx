import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import PhonelinkEraseOutlined from '@mui/icons-material/PhonelinkEraseOutlined';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import { GridActionsCellItem } from '@mui/x-data-grid';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactElement } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { UserRow } from '../api/list-users';
import { ChipList } from './chip-list';
import { EmailCell, TwoFactorCell, UserSummary } from './user-cells';

/** What a row's action buttons ask the page to do. */
export type UserAction = 'roles' | 'reset' | 'two-factor' | 'delete';

/** Which row actions the signed-in user may take. */
export interface AllowedActions {
  roles: boolean;
  reset: boolean;
  delete: boolean;
}

/**
 * The grid's columns: email (with "You" on one's own row), name, role and group chips, creation
 * time, and the actions the user may take. Only email, name and created sort (on the server).
 */
export function useUserColumns(
  me: string,
  allowed: AllowedActions,
  onAction: (action: UserAction, email: string) => void,
): GridColDef<UserRow>[] {
  const { t } = useTranslation();
  const anyAction = allowed.roles || allowed.reset || allowed.delete;
  return useMemo<GridColDef<UserRow>[]>(() => {
    const list: GridColDef<UserRow>[] = [
      {
        // Shown alone (with the actions) where the columns do not fit (users-grid's NARROW).
        field: 'summary',
        headerName: t('users.columns.user'),
        sortable: false,
        hideable: false,
        flex: 1,
        minWidth: 150,
        renderCell: ({ row }) => <UserSummary row={row} me={row.email === me} />,
      },
      {
        field: 'email',
        headerName: t('users.columns.email'),
        flex: 1.8,
        minWidth: 200,
        renderCell: ({ row }) => <EmailCell email={row.email} me={row.email === me} />,
      },
      {
        field: 'name',
        headerName: t('users.columns.name'),
        flex: 1,
        minWidth: 130,
        valueFormatter: (value: string | null) => value || '—',
      },
      {
        field: 'roles',
        headerName: t('users.columns.roles'),
        sortable: false,
        flex: 1,
        minWidth: 150,
        renderCell: ({ row }) => <ChipList names={row.roles} emptyLabel={t('users.none')} color="primary" />,
      },
      {
        field: 'groups',
        headerName: t('users.columns.groups'),
        sortable: false,
        flex: 1,
        minWidth: 150,
        renderCell: ({ row }) => <ChipList names={row.groups} emptyLabel={t('users.none')} />,
      },
      {
        field: 'two_factor',
        headerName: t('users.columns.twoFactor'),
        sortable: false,
        width: 110,
        renderCell: ({ row }) => <TwoFactorCell totp={row.two_factor.totp} passkeys={row.two_factor.passkeys} />,
      },
      {
        field: 'created_at',
        headerName: t('users.columns.created'),
        width: 150,
        valueFormatter: (value: string) => formatDateTime(value),
      },
    ];
    if (!anyAction) return list;
    const item = (action: UserAction, email: string, label: string, icon: ReactElement) => (
      <GridActionsCellItem
        key={action}
        icon={icon}
        label={label}
        title={label}
        onClick={() => onAction(action, email)}
      />
    );
    list.push({
      field: 'actions',
      type: 'actions',
      hideable: false,
      headerName: t('users.columns.actions'),
      width: 170,
      getActions: ({ row }) => [
        ...(allowed.roles
          ? [item('roles', row.email, t('users.actions.roles', { email: row.email }), <ManageAccountsOutlined />)]
          : []),
        ...(allowed.reset
          ? [item('reset', row.email, t('users.actions.reset', { email: row.email }), <LockResetOutlined />)]
          : []),
        ...(allowed.reset && row.email !== me && (row.two_factor.totp || row.two_factor.passkeys > 0)
          ? [
              item(
                'two-factor',
                row.email,
                t('users.actions.twoFactor', { email: row.email }),
                <PhonelinkEraseOutlined />,
              ),
            ]
          : []),
        ...(allowed.delete && row.email !== me
          ? [item('delete', row.email, t('users.actions.delete', { email: row.email }), <DeleteOutlined />)]
          : []),
      ],
    });
    return list;
  }, [t, me, allowed, anyAction, onAction]);
}
