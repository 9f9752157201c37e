import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import { useTranslation } from 'react-i18next';
import { NotAvailableScreen } from '../../../components/not-available-screen';

/** /recordings, /recordings/sessions, /sessions: the screen arrives in a later issue; until then a plain empty state. */
export function SessionsPage() {
  const { t } = useTranslation();
  return <NotAvailableScreen title={t('pages.sessions')} icon={PlayCircleOutlined} />;
}
