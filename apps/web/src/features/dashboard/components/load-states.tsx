import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-error';
import { formatUpdatedAt } from '../model/format';

/** The dashboard could not load: the server's reason (a 403 names the permission) and a retry. */
export function DashboardLoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      variant="outlined"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {t('dashboard.loadFailed', { message: errorText(error, t('message.somethingWentWrong')) })}
    </Alert>
  );
}

/** A refresh failed while older figures are on screen: say how old they are. */
export function DashboardStale({ updatedAt }: { updatedAt: number }) {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" variant="outlined" sx={{ mb: 2 }}>
      {t('dashboard.refreshFailed', { time: formatUpdatedAt(updatedAt) })}
    </Alert>
  );
}
