import SettingsEthernetOutlined from '@mui/icons-material/SettingsEthernetOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /tunnels: the screen arrives in a later issue; until then a plain empty state. */
export function TunnelsPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.tunnels')} icon={SettingsEthernetOutlined} />;
}
