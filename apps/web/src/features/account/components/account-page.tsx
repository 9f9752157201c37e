import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import { useSession } from '../../../lib/use-session';
import { ProfileCard } from './profile-card';
import { ReachCard } from './reach-card';
import { SshKeysCard } from './ssh-keys-card';
import { TwoFactorCard } from './two-factor-card';

/** /account: who you are, what you can reach through your groups, and your SSH keys for the gateway. */
export function AccountPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <>
      <PageHeader title={t('account.title')} subtitle={t('account.subtitle')} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 5 }}>
          <ProfileCard />
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <ReachCard email={user?.email} />
        </Grid>
        <Grid size={12}>
          <TwoFactorCard />
        </Grid>
        <Grid size={12}>
          <SshKeysCard email={user?.email ?? ''} />
        </Grid>
      </Grid>
    </>
  );
}
