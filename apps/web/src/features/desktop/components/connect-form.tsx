import DesktopWindowsOutlined from '@mui/icons-material/DesktopWindowsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field';

/** The account on the remote computer. */
export interface HostCredentials {
  username: string;
  password: string;
  domain: string;
}

/** Props of the sign-in form shown before the desktop. */
export interface ConnectFormProps {
  /** The host's name, or null while unknown. */
  host: string | null;
  /** The user name and domain of the last attempt (never the password). */
  initial: { username: string; domain: string };
  onConnect: (credentials: HostCredentials) => void;
}

/**
 * The host account's user name, password and optional domain. The password lives in this form
 * only until Connect: it is handed on once and the field is emptied.
 */
export function ConnectForm({ host, initial, onConnect }: ConnectFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [username, setUsername] = useState(initial.username);
  const [domain, setDomain] = useState(initial.domain);
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const usernameMissing = username.trim() === '';
  const passwordMissing = password === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (usernameMissing || passwordMissing) return;
    const credentials = { username: username.trim(), password, domain: domain.trim() };
    setPassword('');
    onConnect(credentials);
  };

  return (
    <Paper
      component="form"
      noValidate
      onSubmit={submit}
      aria-labelledby={headingId}
      elevation={0}
      sx={{ width: '100%', maxWidth: 420, p: { xs: 2.5, sm: 3 }, border: 1, borderColor: 'divider' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
        <DesktopWindowsOutlined color="primary" />
        <Typography id={headingId} variant="h2" component="h2" sx={{ fontSize: '1.15rem', overflowWrap: 'anywhere' }}>
          {host ? t('desktop.form.heading', { host }) : t('desktop.form.headingUnknown')}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('desktop.form.text')}
      </Typography>
      <TextField
        label={t('desktop.form.username')}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        autoComplete="off"
        autoFocus={initial.username === ''}
        required
        fullWidth
        margin="dense"
        error={tried && usernameMissing}
        helperText={tried && usernameMissing ? t('desktop.form.usernameRequired') : undefined}
        slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false, autoCapitalize: 'off', maxLength: 256 } }}
      />
      <PasswordField
        label={t('desktop.form.password')}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        autoComplete="off"
        autoFocus={initial.username !== ''}
        required
        fullWidth
        margin="dense"
        error={tried && passwordMissing}
        helperText={tried && passwordMissing ? t('desktop.form.passwordRequired') : t('desktop.form.passwordHelp')}
        slotProps={{ htmlInput: { dir: 'ltr', maxLength: 1024 } }}
      />
      <TextField
        label={t('desktop.form.domain')}
        value={domain}
        onChange={(event) => setDomain(event.target.value)}
        autoComplete="off"
        fullWidth
        margin="dense"
        slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false, autoCapitalize: 'off', maxLength: 256 } }}
      />
      <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }}>
        {t('desktop.form.connect')}
      </Button>
    </Paper>
  );
}
