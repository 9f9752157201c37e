import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /roles: the screen arrives in a later issue; until then a plain empty state. */
export function RolesPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.roles')} icon={AdminPanelSettingsOutlined} />;
}
