import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import type { AlertColor } from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import type { SessionIntegrity } from '../api/verify-session';

const SEVERITY: Record<SessionIntegrity['status'], AlertColor> = {
  intact: 'success',
  tampered: 'error',
  live: 'info',
  unsigned: 'warning',
  missing: 'error',
};

/** The outcome of Verify integrity: intact, tampered, live, unsigned or missing, with the server's reason. */
export function IntegrityAlert({ result }: { result: SessionIntegrity }) {
  const { t } = useTranslation();
  return (
    <Alert severity={SEVERITY[result.status]} variant="outlined" role="status">
      <AlertTitle>{t(`sessions.integrity.${result.status}`)}</AlertTitle>
      {result.message}
      {result.video && (
        <Box data-testid="integrity-video" data-status={result.video.status} sx={{ mt: 1 }}>
          <strong>
            {t('sessions.integrityVideo.label')}:{' '}
            {result.video.cut && result.video.status === 'intact'
              ? t('sessions.integrityVideo.cut')
              : t(`sessions.integrityVideo.${result.video.status}`)}
          </strong>{' '}
          {result.video.message}
        </Box>
      )}
    </Alert>
  );
}
