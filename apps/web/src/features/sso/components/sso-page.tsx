import KeyOutlined from '@mui/icons-material/KeyOutlined';
import { useTranslation } from 'react-i18next';
import { AuthNotAvailable } from '../../../components/auth-not-available';
import { NotAvailableScreen } from '../../../components/not-available-screen';
import { useSession } from '../../../lib/use-session';

/** /sso and /ssoauth: single sign-on arrives in a later issue; shown in or out of the console. */
export function SsoPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return user ? (
    <NotAvailableScreen title={t('pages.sso')} icon={KeyOutlined} />
  ) : (
    <AuthNotAvailable title={t('pages.sso')} icon={KeyOutlined} />
  );
}
