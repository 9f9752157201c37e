import MonitorHeartOutlined from '@mui/icons-material/MonitorHeartOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /systemStatus: system components and their logs arrive in a later issue. */
export function SystemStatusPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.systemStatus')} icon={MonitorHeartOutlined} />;
}
