import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /users: the screen arrives in a later issue; until then a plain empty state. */
export function UsersPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.users')} icon={PeopleOutlined} />;
}
