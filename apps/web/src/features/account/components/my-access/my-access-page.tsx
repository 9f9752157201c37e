import KeyOutlined from '@mui/icons-material/KeyOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../../../components/page-header';
import { useMyAccess } from '../../api/my-access';
import { LoadFailed } from '../load-failed';
import { AccessEntryCard } from './access-entry-card';
import { WhomToAsk } from './whom-to-ask';

/**
 * /access (issue 20): every signed-in user's own page. The hosts and tunnels the server's policy
 * admits them to, each with copy-ready commands for the gateway's real address; a first visit with
 * no reach says whom to ask, never an error.
 */
export function MyAccessPage() {
  const { t } = useTranslation();
  const access = useMyAccess();
  const data = access.data;
  return (
    <>
      <PageHeader title={t('account.access.title')} subtitle={t('account.access.subtitle')} />
      {access.isError ? <LoadFailed error={access.error} onRetry={() => void access.refetch()} /> : null}
      {access.isPending ? <Skeleton variant="rounded" height={240} /> : null}
      {data && !data.may_open ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 3 }}>
          <AlertTitle>{t('account.access.cannotOpenTitle')}</AlertTitle>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('account.access.cannotOpen')}
          </Typography>
          <WhomToAsk contacts={data.contacts} />
        </Alert>
      ) : null}
      {data && data.entries.length === 0 ? (
        <Paper variant="outlined" component="section" sx={{ p: { xs: 3, md: 4 }, textAlign: 'center' }}>
          <TravelExploreOutlined sx={{ fontSize: 48, color: 'text.secondary', mb: 1 }} aria-hidden />
          <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
            {t('account.access.emptyTitle')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2, maxWidth: 560, mx: 'auto' }}>
            {t('account.access.emptyText')}
          </Typography>
          <Box sx={{ mb: 3 }}>
            <WhomToAsk contacts={data.contacts} />
          </Box>
          <Button variant="outlined" component={RouterLink} to="/account" startIcon={<KeyOutlined />}>
            {t('account.access.addKeyFirst')}
          </Button>
        </Paper>
      ) : null}
      {data && data.entries.length > 0 ? (
        <>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
            {t('account.access.gateway')}{' '}
            <Box component="code" dir="ltr" sx={{ fontFamily: 'monospace', unicodeBidi: 'isolate' }}>
              {`${data.gateway.host}:${String(data.gateway.port)}`}
            </Box>
            {' · '}
            {t('account.access.keysHint')}{' '}
            <Link component={RouterLink} to="/account">
              {t('account.menuItem')}
            </Link>
          </Typography>
          <Stack spacing={2}>
            {data.entries.map((entry) => (
              <AccessEntryCard key={entry.definition.id} entry={entry} />
            ))}
          </Stack>
        </>
      ) : null}
    </>
  );
}
