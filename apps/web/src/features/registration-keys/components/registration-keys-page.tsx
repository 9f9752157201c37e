import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /registrationKeys: the screen arrives in a later issue; until then a plain empty state. */
export function RegistrationKeysPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.keys')} icon={VpnKeyOutlined} />;
}
