import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /groups: the screen arrives in a later issue; until then a plain empty state. */
export function GroupsPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.groups')} icon={GroupsOutlined} />;
}
