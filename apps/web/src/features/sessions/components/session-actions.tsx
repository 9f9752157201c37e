import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import StopCircleOutlined from '@mui/icons-material/StopCircleOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useDownloadCast } from '../api/download-cast';
import type { HoldAction } from '../api/legal-hold';
import type { SessionDetail } from '../api/session-detail';
import { useVerifySession } from '../api/verify-session';
import { BundleDownloadButton } from './bundle-download-button';
import type { SessionRow } from '../derive';
import { isLive } from '../derive';
import { IntegrityAlert } from './integrity-alert';
import { canReplay, canWatch } from './session-columns';

/** Props of the detail panel's actions. */
export interface SessionActionsProps {
  row: SessionRow;
  detail: SessionDetail | undefined;
  canTerminate: boolean;
  onWatch: () => void;
  onReplay: () => void;
  onTerminate: () => void;
  /** The caller holds manage-legal-hold: Place hold or Lift hold is offered. */
  canHold?: boolean;
  onHold?: (action: HoldAction) => void;
}

const spinner = <CircularProgress size={16} color="inherit" />;

/** Watch live, Replay, Download (.cast), Verify integrity and Terminate, as the session allows. */
export function SessionActions({
  row,
  detail,
  canTerminate,
  onWatch,
  onReplay,
  onTerminate,
  canHold,
  onHold,
}: SessionActionsProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const download = useDownloadCast();
  const verify = useVerifySession();
  const live = isLive(row);
  // A verdict belongs to one session: choosing another clears it.
  const { reset } = verify;
  useEffect(() => reset(), [row.id, reset]);
  const hasCast = row.type === 'ssh' && (detail?.bytes ?? 1) > 0;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {canWatch(row) ? (
          <Button variant="contained" startIcon={<VisibilityOutlined />} onClick={onWatch}>
            {t('sessions.actions.watch')}
          </Button>
        ) : null}
        {canReplay(row) ? (
          <Button variant={live ? 'outlined' : 'contained'} startIcon={<PlayArrowOutlined />} onClick={onReplay}>
            {t('sessions.actions.replay')}
          </Button>
        ) : null}
        {hasCast ? (
          <Button
            variant="outlined"
            startIcon={download.isPending ? spinner : <DownloadOutlined />}
            disabled={download.isPending}
            onClick={() =>
              download.mutate(row.id, {
                onError: (error) => snackbar.error(t('sessions.downloadFailed', { message: errorText(error) })),
              })
            }
          >
            {t('sessions.actions.download')}
          </Button>
        ) : null}
        {!live && detail?.manifest_signed !== false ? <BundleDownloadButton recordingId={row.id} /> : null}
        <Button
          variant="outlined"
          startIcon={verify.isPending ? spinner : <VerifiedUserOutlined />}
          disabled={verify.isPending}
          onClick={() => verify.mutate(row.id)}
        >
          {t('sessions.actions.verify')}
        </Button>
        {canHold && onHold ? (
          <Button
            variant="outlined"
            color={row.legal_hold?.held ? 'warning' : 'inherit'}
            startIcon={<GavelOutlined />}
            onClick={() => onHold(row.legal_hold?.held ? 'lift' : 'place')}
          >
            {t(row.legal_hold?.held ? 'sessions.hold.lift' : 'sessions.hold.place')}
          </Button>
        ) : null}
        {live && canTerminate ? (
          <Button variant="outlined" color="error" startIcon={<StopCircleOutlined />} onClick={onTerminate}>
            {t('sessions.actions.terminate')}
          </Button>
        ) : null}
      </Box>
      {verify.data ? <IntegrityAlert result={verify.data} /> : null}
      {verify.isError ? (
        <IntegrityError message={t('sessions.verifyFailed', { message: errorText(verify.error) })} />
      ) : null}
    </Box>
  );
}

function IntegrityError({ message }: { message: string }) {
  return (
    <Box role="alert" sx={{ color: 'error.main', typography: 'body2' }}>
      {message}
    </Box>
  );
}
