import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { usePageTitle } from '../../../components/use-page-title';
import { useMustEnrol } from '../../../lib/two-factor-gate';
import { useTwoFactorStatus } from '../api/two-factor';
import { TwoFactorCard } from './two-factor-card';

/**
 * /account/two-factor: where a user whose role requires a second factor lands until they set one
 * up (every other page leads here meanwhile); anyone may come here from My account too.
 */
export function EnrolPage() {
  const { t } = useTranslation();
  usePageTitle(t('account.twoFactor.title'));
  const navigate = useNavigate();
  const mustEnrol = useMustEnrol();
  const status = useTwoFactorStatus();
  const enrolled = Boolean(status.data && (status.data.totp || status.data.passkeys.length > 0));
  return (
    <Box sx={{ maxWidth: 880 }}>
      <PageHeader title={t('account.twoFactor.title')} subtitle={t('account.twoFactor.pageSubtitle')} />
      {mustEnrol && !enrolled ? (
        <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
          {t('account.twoFactor.mustEnrol')}
        </Alert>
      ) : null}
      {/* The page's notice says why already; the card's own would repeat it. */}
      <TwoFactorCard showRequired={!mustEnrol} />
      {enrolled ? (
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="contained" onClick={() => void navigate('/')}>
            {t('account.twoFactor.continue')}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
