import { LEGAL_HOLD_REASON_MAX } from '@gatehouse/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { ApiError } from '../../../lib/api-error';
import { type HoldAction, useChangeLegalHold } from '../api/legal-hold';
import type { SessionRow } from '../derive';

/** The session and the change the dialog asks about; null closes it. */
export interface HoldTarget {
  row: SessionRow;
  action: HoldAction;
}

// Control characters, line and paragraph separators, direction overrides: the server refuses them too.
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** What is wrong with a reason as typed, or null when it may be sent. */
export function reasonProblem(reason: string): 'required' | 'oneLine' | 'tooLong' | null {
  if (NOT_ONE_LINE.test(reason)) return 'oneLine';
  const trimmed = reason.trim();
  if (trimmed === '') return 'required';
  return trimmed.length > LEGAL_HOLD_REASON_MAX ? 'tooLong' : null;
}

/**
 * Place or lift a legal hold (manage-legal-hold): says what the change means for retention, asks
 * for the reason (required; it goes to the audit trail) and confirms with a button naming the change.
 */
export function LegalHoldDialog({ target, onClose }: { target: HoldTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const mutation = useChangeLegalHold();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = reasonProblem(reason);
  const action = target?.action ?? 'place';

  const close = () => {
    setReason('');
    setTouched(false);
    mutation.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!target || problem) return;
    mutation.mutate(
      { id: target.row.id, action, reason: reason.trim() },
      {
        onSuccess: () => {
          snackbar.success(t(action === 'place' ? 'sessions.hold.placed' : 'sessions.hold.lifted'));
          close();
        },
        onError: (error) => {
          // Someone else changed the hold meanwhile: say so and let the list show the truth.
          if (error instanceof ApiError && error.status === 409) {
            snackbar.error(t(action === 'place' ? 'sessions.hold.alreadyHeld' : 'sessions.hold.notHeld'));
            close();
          }
        },
      },
    );
  };

  const who = target ? { user: target.row.user.email, hostname: target.row.host.hostname } : { user: '', hostname: '' };
  const shownProblem = touched ? problem : null;
  return (
    <Dialog
      open={target !== null}
      onClose={mutation.isPending ? undefined : close}
      aria-labelledby={titleId}
      aria-describedby={textId}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>
          {t(action === 'place' ? 'sessions.hold.placeTitle' : 'sessions.hold.liftTitle')}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2.5}>
            <DialogContentText id={textId}>
              {t(action === 'place' ? 'sessions.hold.placeMessage' : 'sessions.hold.liftMessage', who)}
            </DialogContentText>
            {mutation.isError && !(mutation.error instanceof ApiError && mutation.error.status === 409) ? (
              <Alert severity="error" variant="outlined">
                {errorText(mutation.error)}
              </Alert>
            ) : null}
            <TextField
              label={t('sessions.hold.reason')}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              onBlur={() => setTouched(true)}
              error={shownProblem !== null}
              helperText={
                shownProblem
                  ? t(`sessions.hold.problems.${shownProblem}`, { max: LEGAL_HOLD_REASON_MAX })
                  : t('sessions.hold.reasonHelper', { max: LEGAL_HOLD_REASON_MAX })
              }
              required
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: LEGAL_HOLD_REASON_MAX, 'aria-required': true } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={close} color="inherit" disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={action === 'lift' ? 'error' : 'primary'}
            loading={mutation.isPending}
          >
            {t(action === 'place' ? 'sessions.hold.confirmPlace' : 'sessions.hold.confirmLift')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
