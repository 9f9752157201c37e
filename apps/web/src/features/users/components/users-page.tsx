import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import type { GridPaginationModel, GridSortModel } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import { errorText } from '../../../lib/api-error';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import type { UserSortField } from '../api/list-users';
import { useUserList } from '../api/list-users';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { AddUserDialog } from './add-user-dialog';
import { ManageRolesDialog } from './manage-roles-dialog';
import { UserActionDialogs } from './user-action-dialogs';
import type { UserAction } from './user-columns';
import { UsersGrid } from './users-grid';
import { UsersSearch } from './users-search';

const SORTABLE: readonly string[] = ['email', 'name', 'created_at'];

/** /users: everyone for holders of list-user, only oneself for anyone else (server-side). */
export function UsersPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  // The page belongs to a search: a new search starts again on its first page.
  const [paging, setPaging] = useState({ q: '', page: 0, pageSize: 25 });
  const [sort, setSort] = useState<GridSortModel>([]);
  const [adding, setAdding] = useState(false);
  const [action, setAction] = useState<{ kind: UserAction; email: string } | null>(null);

  const seesEveryone = hasPermission(user, ['list-user']);
  const canModify = hasPermission(user, ['modify-user']);
  const allowed = useMemo(
    () => ({ roles: hasPermission(user, ['modify-user-role']), reset: canModify, delete: canModify }),
    [user, canModify],
  );
  const page = paging.q === q ? paging.page : 0;
  const sortItem = sort[0];
  const list = useUserList({
    page,
    pageSize: paging.pageSize,
    sort: sortItem && SORTABLE.includes(sortItem.field) ? (sortItem.field as UserSortField) : undefined,
    order: sortItem?.sort === 'desc' ? 'desc' : 'asc',
    q: seesEveryone ? q : '',
  });
  const onPagingChange = useCallback((model: GridPaginationModel) => setPaging({ q, ...model }), [q]);
  // A new order starts again on the first page.
  const onSortChange = useCallback(
    (model: GridSortModel) => {
      setSort(model);
      setPaging((current) => ({ ...current, q, page: 0 }));
    },
    [q],
  );
  const onAction = useCallback((kind: UserAction, email: string) => setAction({ kind, email }), []);

  return (
    <Box>
      <PageHeader
        title={t('pages.users')}
        subtitle={t('users.subtitle')}
        actions={
          canModify ? (
            <Button variant="contained" startIcon={<PersonAddAltOutlined />} onClick={() => setAdding(true)}>
              {t('users.add.button')}
            </Button>
          ) : undefined
        }
      />
      {seesEveryone ? (
        <UsersSearch value={search} onChange={setSearch} total={list.data?.total} />
      ) : (
        <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
          {t('users.onlyYou')}
        </Alert>
      )}
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
          {t('users.loadFailed', { message: errorText(list.error, t('message.somethingWentWrong')) })}
        </Alert>
      ) : null}
      {list.isError && !list.data ? null : (
        <Paper variant="outlined" sx={{ height: seesEveryone ? 'max(440px, calc(100vh - 340px))' : 'auto' }}>
          <UsersGrid
            rows={list.data?.users ?? []}
            total={list.data?.total ?? 0}
            loading={list.isFetching}
            paging={{ page, pageSize: paging.pageSize }}
            onPagingChange={onPagingChange}
            sort={sort}
            onSortChange={onSortChange}
            me={user?.email ?? ''}
            allowed={allowed}
            onAction={onAction}
            noRowsLabel={q ? t('users.noMatch', { q }) : t('users.empty')}
            compact={!seesEveryone}
          />
        </Paper>
      )}
      <AddUserDialog open={adding} onClose={() => setAdding(false)} />
      <UserActionDialogs action={action} onDone={() => setAction(null)} />
      <ManageRolesDialog
        email={action?.kind === 'roles' ? action.email : null}
        canPickRoles={hasPermission(user, ['list-user-role'])}
        onClose={() => setAction(null)}
      />
    </Box>
  );
}
