import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { SecondFactorMethod } from '@gatehouse/contracts';
import type { FormEvent } from 'react';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailText } from '../email-text';
import { PasswordField } from '../password-field';

/** Width of the dialog's fields (spec §2.6). */
const FIELD_WIDTH = 240;

/**
 * Whether the email field cuts its value (a long address in the spec's 240 px field), kept current
 * as its width or font changes: then the whole address shows under it, wrapping (issue 20).
 */
function useCut(): [(input: HTMLInputElement | null) => (() => void) | undefined, boolean] {
  const [cut, setCut] = useState(false);
  const ref = useCallback((input: HTMLInputElement | null) => {
    if (!input) return undefined;
    const measure = () => setCut(input.scrollWidth > input.clientWidth + 1);
    measure();
    // Measured again once the web font is in (it is wider than the fallback) and on any resize.
    void document.fonts?.ready.then(measure);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(input);
    return () => observer.disconnect();
  }, []);
  return [ref, cut];
}

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
  /**
   * The user signed in at the identity provider in the popup, and the account has these second
   * factors (issue 20): only the factor is asked, no password.
   */
  ssoMethods?: readonly SecondFactorMethod[] | undefined;
}

/**
 * What the dialog asks for after a single sign-on, from the account's factors and whether this
 * browser can use a passkey: its text, whether a code field shows, and whether that code can come
 * from an authenticator app (else it is a recovery code, and the passkey comes first).
 */
function ssoAsks(methods: readonly SecondFactorMethod[], passkey: boolean) {
  const app = methods.includes('totp');
  const recovery = methods.includes('recovery-code');
  const text = app
    ? passkey
      ? ('authorize.ssoFactorText' as const)
      : ('authorize.ssoCodeText' as const)
    : passkey
      ? recovery
        ? ('authorize.ssoPasskeyRecoveryText' as const)
        : ('authorize.ssoPasskeyText' as const)
      : ('authorize.ssoRecoveryText' as const);
  return { text, app, code: app || recovery || !passkey };
}

/**
 * The Authorize dialog (spec §2.6): User Email and masked User Password, Cancel and Authorize.
 * Authorize is disabled while a field is empty or while submitting; Enter submits when both are
 * filled; the wait cursor shows while submitting. 300 wide, 240 px fields. After a single sign-on
 * in the popup, for an account with a second factor, it asks only for that factor (issue 20).
 */
export function AuthorizeDialog(props: AuthorizeDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const [emailRef, emailCut] = useCut();
  const sso = props.ssoMethods ? ssoAsks(props.ssoMethods, props.onPasskey !== undefined) : undefined;
  const afterSso = sso !== undefined;
  const asksFactor = props.needsFactor === true || afterSso;
  // A code field unless the only factor is a passkey (recovery codes come only alongside another factor).
  const asksCode = sso?.code ?? true;
  // Someone without an authenticator app types only a recovery code: their passkey comes first.
  const appCode = sso?.app ?? true;
  const codeMissing = asksFactor && (props.code ?? '').trim() === '';
  const passwordMissing = !afterSso && props.password.length === 0;
  const ready = props.email.length > 0 && !passwordMissing && !codeMissing && !props.submitting;
  const passkeyButton = (label: string) => (
    <Button
      variant="outlined"
      onClick={props.onPasskey}
      disabled={props.submitting || passwordMissing}
      sx={{ width: FIELD_WIDTH }}
    >
      {label}
    </Button>
  );
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
              {sso ? t(sso.text) : props.after401 ? t('authorize.neededText') : t('authorize.text')}
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
              // A long address does not fit the spec's 240 px: the field keeps its start, the title
              // and the line under it (only then) hold it whole, wrapping within the same width.
              helperText={emailCut ? <EmailText>{props.email}</EmailText> : undefined}
              slotProps={{
                // An address reads left to right, from its start, in Arabic too.
                htmlInput: { ref: emailRef, readOnly: true, 'aria-required': true, dir: 'ltr', title: props.email },
                formHelperText: {
                  dir: 'ltr',
                  sx: { overflowWrap: 'anywhere', mx: 0, textAlign: 'start' },
                },
              }}
            />
            {afterSso ? null : (
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
            )}
            {asksFactor ? (
              <>
                {props.onPasskey && !appCode ? passkeyButton(t('authorize.passkey')) : null}
                {asksCode ? (
                  <TextField
                    label={appCode ? t('authorize.code') : t('authorize.recoveryCode')}
                    value={props.code ?? ''}
                    onChange={(event) => props.onCodeChange?.(event.target.value)}
                    autoComplete="one-time-code"
                    autoFocus={appCode}
                    disabled={props.submitting}
                    helperText={appCode ? t('authorize.codeHint') : undefined}
                    sx={{ width: FIELD_WIDTH }}
                    slotProps={{ htmlInput: { dir: 'ltr', maxLength: 64 } }}
                  />
                ) : null}
                {props.onPasskey && appCode ? passkeyButton(t('authorize.usePasskey')) : null}
              </>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          {/* Not while submitting: a session authorization revokes the old token, so its answer must not be lost. */}
          <Button onClick={props.onCancel} color="inherit" disabled={props.submitting}>
            {t('common.cancel')}
          </Button>
          {/* With a passkey alone there is nothing to submit: its button authorizes. */}
          {asksCode ? (
            <Button type="submit" variant="contained" disabled={!ready} loading={props.submitting}>
              {t('authorize.submit')}
            </Button>
          ) : null}
        </DialogActions>
      </form>
    </Dialog>
  );
}
