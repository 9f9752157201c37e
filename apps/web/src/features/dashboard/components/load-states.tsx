import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../components/load-failed';
import { formatUpdatedAt } from '../model/format';

/** The dashboard could not load: the server's reason (a 403 names the permission) and a retry. */
export function DashboardLoadFailed(props: { error: unknown; onRetry: () => void }) {
  return <LoadFailed {...props} messageId="dashboard.loadFailed" />;
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
