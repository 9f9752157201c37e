import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import { useTranslation } from 'react-i18next';
import { AuthNotAvailable } from '../../../components/auth-not-available';

/** /confirm-signup: sign-up needs no confirmation code here, so this sample-provider step stays a note. */
export function ConfirmSignUpPage() {
  const { t } = useTranslation();
  return <AuthNotAvailable title={t('pages.confirmSignUp')} icon={MarkEmailReadOutlined} />;
}
