import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import MarkEmailReadOutlined from '@mui/icons-material/MarkEmailReadOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import { useTranslation } from 'react-i18next';
import { AuthNotAvailable } from '../../../components/auth-not-available';

/** /signup: arrives with the account issue. */
export function SignUpPage() {
  const { t } = useTranslation();
  return <AuthNotAvailable title={t('pages.signUp')} icon={PersonAddAltOutlined} />;
}

/** /confirm-signup: arrives with the account issue. */
export function ConfirmSignUpPage() {
  const { t } = useTranslation();
  return <AuthNotAvailable title={t('pages.confirmSignUp')} icon={MarkEmailReadOutlined} />;
}

/** /forget-password: the reset flow arrives in a later issue. */
export function ForgetPasswordPage() {
  const { t } = useTranslation();
  return <AuthNotAvailable title={t('pages.forgetPassword')} icon={LockResetOutlined} />;
}

/** /reset-password: the reset flow arrives in a later issue. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  return <AuthNotAvailable title={t('pages.resetPassword')} icon={LockResetOutlined} />;
}
