import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { useSession } from '../../../lib/use-session';
import { useGrantableRoleNames } from '../api/grantable-roles';
import { useAddUserRole } from '../api/add-user-role';

/**
 * Gives the user a role: a picker of the roles the caller may give, for holders of list-user-role;
 * otherwise a free text field (the server checks the name and the grant).
 */
export function AddRoleForm({
  email,
  held,
  canPickRoles,
}: {
  email: string;
  held: readonly string[];
  canPickRoles: boolean;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const { user } = useSession();
  const names = useGrantableRoleNames(canPickRoles, user?.effectivePermissions ?? []);
  const add = useAddUserRole(email);
  const [role, setRole] = useState('');
  const options = (names.data ?? []).filter((name) => !held.includes(name));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = role.trim();
    if (chosen === '') return;
    add.mutate(chosen, {
      onSuccess: () => {
        snackbar.success(t('users.roles.added', { role: chosen, email }));
        setRole('');
      },
      onError: (error) => snackbar.error(errorText(error, t('message.somethingWentWrong'))),
    });
  };

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <Autocomplete
        freeSolo={!canPickRoles}
        options={options}
        loading={names.isLoading}
        value={role === '' ? null : role}
        inputValue={role}
        onInputChange={(_event, value) => setRole(value)}
        onChange={(_event, value) => setRole(value ?? '')}
        noOptionsText={t('users.roles.noOptions')}
        loadingText={t('common.loading')}
        openText={t('users.roles.openList')}
        closeText={t('common.close')}
        clearText={t('users.roles.clear')}
        sx={{ flex: 1 }}
        size="small"
        renderInput={(params) => (
          <TextField {...params} label={t('users.roles.addLabel')} helperText={t('users.roles.addHelper')} />
        )}
      />
      <Button type="submit" variant="contained" disabled={role.trim() === ''} loading={add.isPending} sx={{ mt: 0.25 }}>
        {t('common.add')}
      </Button>
    </Box>
  );
}
