import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../password-field';

/** Width of the dialog's fields (spec §2.6). */
const FIELD_WIDTH = 240;

/** Props of the Authorize dialog: what it shows and what its buttons do. */
export interface AuthorizeDialogProps {
  open: boolean;
  /** Prefilled from the stored user's username; the server authorizes the signed-in user. */
  email: string;
  password: string;
  onPasswordChange: (password: string) => void;
  submitting: boolean;
  /** The server's reasons for refusing the password, one entry each. */
  errors: readonly string[];
  /** The server refused the call first ('Authorization needed'). */
  after401: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  /** The account has a second factor: its code (or a passkey) goes with the password (issue 20). */
  needsFactor?: boolean;
  code?: string;
  onCodeChange?: (code: string) => void;
  /** Signs the server's challenge with a passkey instead of a code, when the browser can. */
  onPasskey?: (() => void) | undefined;
}

/**
 * The Authorize dialog (spec §2.6): User Email and masked User Password, Cancel and Authorize.
 * Authorize is disabled while a field is empty or while submitting; Enter submits when both are
 * filled; the wait cursor shows while submitting. 300 wide, 240 px fields.
 */
export function AuthorizeDialog(props: AuthorizeDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const codeMissing = props.needsFactor === true && (props.code ?? '').trim() === '';
  const ready = props.email.length > 0 && props.password.length > 0 && !codeMissing && !props.submitting;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) props.onSubmit();
  };
  return (
    <Dialog
      open={props.open}
      onClose={() => {
        if (!props.submitting) props.onCancel();
      }}
      aria-labelledby={titleId}
      aria-describedby={textId}
      slotProps={{ paper: { sx: { width: 300, m: 1, cursor: props.submitting ? 'wait' : undefined } } }}
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{t('authorize.title')}</DialogTitle>
        <DialogContent sx={{ px: 3 }}>
          <Stack spacing={2} sx={{ alignItems: 'center' }}>
            <Typography id={textId} variant="body2" sx={{ color: 'text.secondary', width: FIELD_WIDTH }}>
              {props.after401 ? t('authorize.neededText') : t('authorize.text')}
            </Typography>
            {props.errors.map((text) => (
              <Alert key={text} severity="error" variant="outlined" sx={{ width: FIELD_WIDTH }}>
                {text}
              </Alert>
            ))}
            <TextField
              label={t('authorize.email')}
              value={props.email}
              autoComplete="username"
              sx={{ width: FIELD_WIDTH }}
              slotProps={{ htmlInput: { readOnly: true, 'aria-required': true } }}
            />
            <PasswordField
              label={t('authorize.password')}
              value={props.password}
              onChange={(event) => props.onPasswordChange(event.target.value)}
              autoComplete="current-password"
              autoFocus={!props.needsFactor}
              disabled={props.submitting}
              sx={{ width: FIELD_WIDTH }}
              slotProps={{ htmlInput: { 'aria-required': true } }}
            />
            {props.needsFactor ? (
              <>
                <TextField
                  label={t('authorize.code')}
                  value={props.code ?? ''}
                  onChange={(event) => props.onCodeChange?.(event.target.value)}
                  autoComplete="one-time-code"
                  autoFocus
                  disabled={props.submitting}
                  helperText={t('authorize.codeHint')}
                  sx={{ width: FIELD_WIDTH }}
                  slotProps={{ htmlInput: { dir: 'ltr', maxLength: 64 } }}
                />
                {props.onPasskey ? (
                  <Button
                    variant="outlined"
                    onClick={props.onPasskey}
                    disabled={props.submitting || props.password.length === 0}
                    sx={{ width: FIELD_WIDTH }}
                  >
                    {t('authorize.usePasskey')}
                  </Button>
                ) : null}
              </>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          {/* Not while submitting: a session authorization revokes the old token, so its answer must not be lost. */}
          <Button onClick={props.onCancel} color="inherit" disabled={props.submitting}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={!ready} loading={props.submitting}>
            {t('authorize.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
