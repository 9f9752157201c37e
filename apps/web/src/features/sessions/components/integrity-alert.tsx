import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import type { AlertColor } from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { integrityDetail } from '../../../components/integrity-detail';
import type { SessionIntegrity } from '../api/verify-session';

const SEVERITY: Record<SessionIntegrity['status'], AlertColor> = {
  intact: 'success',
  tampered: 'error',
  live: 'info',
  unsigned: 'warning',
  missing: 'error',
};

/**
 * The outcome of Verify integrity: intact, tampered, live, unsigned or missing, said in the console
 * language; the server's own reasons (English, technical) are the tooltip in English only.
 */
export function IntegrityAlert({ result }: { result: SessionIntegrity }) {
  const { t, i18n } = useTranslation();
  const reasons =
    i18n.language === 'en' ? [result.message, result.video?.message].filter(Boolean).join('\n') : undefined;
  return (
    <Alert severity={SEVERITY[result.status]} variant="outlined" role="status" title={reasons}>
      <AlertTitle>{t(`sessions.integrity.${result.status}`)}</AlertTitle>
      {integrityDetail(result, t, i18n.language)}
      {result.video && (
        <Box data-testid="integrity-video" data-status={result.video.status} sx={{ mt: 1 }}>
          <strong>
            {t('sessions.integrityVideo.label')}:{' '}
            {result.video.cut && result.video.status === 'intact'
              ? t('sessions.integrityVideo.cut')
              : t(`sessions.integrityVideo.${result.video.status}`)}
          </strong>
        </Box>
      )}
    </Alert>
  );
}
