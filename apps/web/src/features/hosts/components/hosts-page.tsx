import DnsOutlined from '@mui/icons-material/DnsOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /hosts: the screen arrives in a later issue; until then a plain empty state. */
export function HostsPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.agents')} icon={DnsOutlined} />;
}
