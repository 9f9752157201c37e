import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field';
import type { TunnelItem } from '../api/list-tunnels';
import type { TunnelErrors, TunnelForm } from '../form/tunnel-form';

/** Props of the ssh fields. */
export interface SshFieldsProps {
  form: TunnelForm;
  errors: TunnelErrors;
  editing: TunnelItem | null;
  onChange: (patch: Partial<TunnelForm>) => void;
}

/** The login on the host, and how Gatehouse logs in: a key pair it generates, or a password. */
export function SshFields({ form, errors, editing, onChange }: SshFieldsProps) {
  const { t } = useTranslation();
  const authLabelId = useId();
  const forwardingHelpId = useId();
  const keepsPassword = editing?.ssh_auth === 'password';
  const text = (field: 'sshLogin' | 'password') => {
    const error = errors[field];
    return error ? t(error.key, error.values) : undefined;
  };
  return (
    <>
      <TextField
        label={t('tunnels.form.login')}
        value={form.sshLogin}
        onChange={(event) => onChange({ sshLogin: event.target.value })}
        error={errors.sshLogin !== undefined}
        helperText={text('sshLogin') ?? t('tunnels.form.loginHelper')}
        slotProps={{ htmlInput: { maxLength: 32, spellCheck: false, autoCapitalize: 'none', 'aria-required': true } }}
      />
      <FormControl>
        <FormLabel id={authLabelId}>{t('tunnels.form.auth')}</FormLabel>
        <RadioGroup
          aria-labelledby={authLabelId}
          row
          value={form.sshAuth}
          onChange={(event) => onChange({ sshAuth: event.target.value === 'password' ? 'password' : 'key' })}
        >
          <FormControlLabel value="key" control={<Radio />} label={t('tunnels.form.authKey')} />
          <FormControlLabel value="password" control={<Radio />} label={t('tunnels.form.authPassword')} />
        </RadioGroup>
      </FormControl>
      {form.sshAuth === 'password' ? (
        <PasswordField
          label={t('tunnels.form.password')}
          value={form.password}
          onChange={(event) => onChange({ password: event.target.value })}
          error={errors.password !== undefined}
          helperText={
            text('password') ?? (keepsPassword ? t('tunnels.form.passwordKeep') : t('tunnels.form.passwordHelper'))
          }
          autoComplete="new-password"
        />
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {editing?.ssh_auth === 'key' ? t('tunnels.form.keyKept') : t('tunnels.form.keyNew')}
        </Typography>
      )}
      <FormControl>
        <FormControlLabel
          control={
            <Switch
              checked={form.allowPortForwarding}
              onChange={(event) => onChange({ allowPortForwarding: event.target.checked })}
              slotProps={{ input: { 'aria-describedby': forwardingHelpId } }}
            />
          }
          label={t('tunnels.form.portForwarding')}
        />
        <FormHelperText id={forwardingHelpId} sx={{ mx: 0 }}>
          {t('tunnels.form.portForwardingHelper')}
        </FormHelperText>
      </FormControl>
    </>
  );
}
