import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /settings: the screen arrives in a later issue; until then a plain empty state. */
export function SettingsPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.settings')} icon={SettingsOutlined} />;
}
