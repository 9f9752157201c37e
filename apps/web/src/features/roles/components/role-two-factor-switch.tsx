import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { errorText } from '../../../lib/api-error';
import { useSetRoleTwoFactor } from '../api/set-role-two-factor';
import type { RoleDetail } from '../api/get-role';

/** "Require two-factor sign-in" for the role's holders: an administrator's choice (issue 20). */
export function RoleTwoFactorSwitch({ role, canModify }: { role: RoleDetail; canModify: boolean }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const set = useSetRoleTwoFactor();
  return (
    <>
      <FormControlLabel
        control={
          <Switch
            checked={role.require_two_factor}
            disabled={!canModify || set.isPending}
            onChange={(_event, required) =>
              set.mutate(
                { role: role.name, required },
                {
                  onSuccess: (answer) => snackbar.success(answer.message),
                  onError: (error) => snackbar.error(errorText(error, t('message.somethingWentWrong'))),
                },
              )
            }
          />
        }
        label={t('roles.detail.requireTwoFactor')}
      />
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('roles.detail.requireTwoFactorHint')}
      </Typography>
    </>
  );
}
