import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { bundleFileName, useDownloadBundle } from '../api/download-bundle';

/** "Download evidence bundle", with how to verify it offline in its tooltip (and its description). */
export function BundleDownloadButton({ recordingId }: { recordingId: string }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const download = useDownloadBundle();
  const help = t('sessions.actions.bundleHelp', { file: bundleFileName(recordingId) });
  return (
    <Tooltip title={help} describeChild>
      <Button
        variant="outlined"
        startIcon={download.isPending ? <CircularProgress size={16} color="inherit" /> : <Inventory2Outlined />}
        disabled={download.isPending}
        onClick={() =>
          download.mutate(recordingId, {
            onError: (error) => snackbar.error(t('sessions.bundleFailed', { message: errorText(error) })),
          })
        }
      >
        {t('sessions.actions.bundle')}
      </Button>
    </Tooltip>
  );
}
