import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /hostsDashboard: the screen arrives in a later issue; until then a plain empty state. */
export function DashboardPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.dashboard')} icon={DashboardOutlined} />;
}
