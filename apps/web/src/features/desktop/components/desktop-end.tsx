import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { DesktopEnd, DesktopEndKind } from '../connection/desktop-protocol';

/** Ends after which connecting again may help; the others need someone else to act first. */
const RETRYABLE: ReadonlySet<DesktopEndKind> = new Set([
  'terminated',
  'badInput',
  'hostFailed',
  'serverStopping',
  'ended',
  'left',
  'lost',
]);

/** Ends that are the normal close of a session, not a failure. */
const CALM: ReadonlySet<DesktopEndKind> = new Set(['ended', 'left']);

/** Props of the end panel. */
export interface DesktopEndPanelProps {
  end: DesktopEnd;
  /** True on the watch screen (its words differ for leaving and refusal). */
  watching?: boolean;
  /** Connect (or watch) again; shown for ends where it can help. */
  onRetry: () => void;
  /** Where "back" goes, and its label. */
  back: { to: string; label: string };
  /** Signs out, so the user signs in again (4401). */
  onSignIn: () => void;
}

/**
 * Why the desktop is over, in the server's words when it gave any, with what the user can do:
 * connect again, sign in again, or go back. A termination shows the administrator's reason first.
 */
export function DesktopEndPanel({ end, watching, onRetry, back, onSignIn }: DesktopEndPanelProps) {
  const { t } = useTranslation();
  const kind = end.kind;
  const key = watching && (kind === 'left' || kind === 'notAdmitted' || kind === 'ended') ? `watch.${kind}` : kind;
  const title = t(`desktop.end.${key}.title`);
  const generic = t(`desktop.end.${key}.text`);
  const severity = CALM.has(kind) ? 'info' : kind === 'serverStopping' ? 'warning' : 'error';
  return (
    <Box sx={{ width: '100%', maxWidth: 560, mx: 'auto' }}>
      <Alert severity={severity} variant="outlined" role="alert" sx={{ bgcolor: 'background.paper' }}>
        <AlertTitle>{title}</AlertTitle>
        {kind === 'terminated' ? (
          <>
            <Typography
              component="p"
              sx={{ fontSize: '1.1rem', fontWeight: 600, my: 1, unicodeBidi: 'plaintext' }}
              data-testid="desktop-end-reason"
            >
              {end.message ?? t('desktop.end.terminated.noReason')}
            </Typography>
            <Typography variant="body2">{generic}</Typography>
          </>
        ) : (
          <Typography variant="body2" sx={{ unicodeBidi: 'plaintext' }}>
            {end.message ?? generic}
          </Typography>
        )}
      </Alert>
      <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap', justifyContent: 'center' }}>
        {kind === 'signIn' ? (
          <Button variant="contained" onClick={onSignIn}>
            {t('desktop.actions.signIn')}
          </Button>
        ) : null}
        {RETRYABLE.has(kind) ? (
          <Button variant="contained" onClick={onRetry}>
            {watching ? t('desktop.actions.watchAgain') : t('desktop.actions.reconnect')}
          </Button>
        ) : null}
        <Button
          variant={RETRYABLE.has(kind) || kind === 'signIn' ? 'outlined' : 'contained'}
          component={RouterLink}
          to={back.to}
        >
          {back.label}
        </Button>
      </Box>
    </Box>
  );
}
