import LockOutlined from '@mui/icons-material/LockOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field';
import { PemField } from './pem-field';

/**
 * A write-only secret (bind password, client secret, private key). When one is stored it shows
 * 'Stored' and a Replace button, never the secret; a new one is typed only on purpose, and an
 * empty one keeps the stored secret (the server's rule).
 */
export function SsoSecretField(props: {
  label: string;
  /** A secret is stored on the server. */
  stored: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Shown when nothing is stored. */
  helper: string;
  /** PEM text (a private key) rather than a one-line password. */
  pem?: { chooseLabel: string; maxLength: number };
}) {
  const { t } = useTranslation();
  const [replacing, setReplacing] = useState(false);

  if (props.stored && !replacing && props.value === '') {
    return (
      <TextField
        label={props.label}
        value={t('settings.sso.secret.stored')}
        helperText={t('settings.sso.secret.storedHelper')}
        fullWidth
        slotProps={{
          input: {
            readOnly: true,
            startAdornment: (
              <InputAdornment position="start">
                <LockOutlined fontSize="small" aria-hidden />
              </InputAdornment>
            ),
            endAdornment: (
              <InputAdornment position="end">
                <Button
                  size="small"
                  onClick={() => setReplacing(true)}
                  aria-label={t('settings.sso.secret.replaceNamed', { name: props.label })}
                >
                  {t('settings.sso.secret.replace')}
                </Button>
              </InputAdornment>
            ),
          },
          htmlInput: { sx: { color: 'text.secondary' } },
        }}
      />
    );
  }

  const helper = props.error ?? (props.stored ? t('settings.sso.secret.replacingHelper') : props.helper);
  // Opened with Replace: the new secret's field takes the focus.
  const focus = props.stored && replacing;
  return (
    <Box>
      {props.pem ? (
        <PemField
          label={props.label}
          helperText={helper}
          value={props.value}
          error={props.error}
          onChange={props.onChange}
          chooseLabel={props.pem.chooseLabel}
          maxLength={props.pem.maxLength}
        />
      ) : (
        <PasswordField
          label={props.label}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          error={props.error !== undefined}
          helperText={helper}
          autoComplete="new-password"
          autoFocus={focus}
          fullWidth
        />
      )}
      {props.stored ? (
        <Button
          size="small"
          color="inherit"
          onClick={() => {
            props.onChange('');
            setReplacing(false);
          }}
          sx={{ mt: 0.5 }}
        >
          {t('settings.sso.secret.keep')}
        </Button>
      ) : null}
    </Box>
  );
}
