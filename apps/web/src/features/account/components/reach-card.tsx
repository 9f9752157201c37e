import DnsOutlined from '@mui/icons-material/DnsOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { type AccessEntry, useMyAccess } from '../api/my-access';
import { useReach } from '../api/reach';
import { MY_ACCESS_PATH } from '../feature';
import { LoadFailed } from './load-failed';
import { WhomToAsk } from './my-access/whom-to-ask';
import { SectionCard } from './section-card';

/** Each host once, with the kinds of access its definitions give (My access lists them in full). */
function hostsOf(entries: readonly AccessEntry[]): { id: string; hostname: string; kinds: string[] }[] {
  const hosts = new Map<string, { id: string; hostname: string; kinds: string[] }>();
  for (const entry of entries) {
    const host = hosts.get(entry.host.id) ?? { id: entry.host.id, hostname: entry.host.hostname, kinds: [] };
    if (!host.kinds.includes(entry.definition.type)) host.kinds.push(entry.definition.type);
    hosts.set(entry.host.id, host);
  }
  return [...hosts.values()];
}

/**
 * What the user can reach, as My access says it (the server's policy: definitions that name them or
 * their groups), with their groups (nesting included) and a link to the commands.
 */
export function ReachCard({ email }: { email: string | undefined }) {
  const { t } = useTranslation();
  const access = useMyAccess();
  const reach = useReach(email);
  const hosts = access.data ? hostsOf(access.data.entries) : [];
  return (
    <SectionCard
      icon={HubOutlined}
      title={t('account.reach.title')}
      action={
        <Button component={RouterLink} to={MY_ACCESS_PATH} variant="outlined" size="small">
          {t('account.reach.howToConnect')}
        </Button>
      }
    >
      {access.isError ? <LoadFailed error={access.error} onRetry={() => void access.refetch()} /> : null}
      {access.isPending ? <Skeleton variant="rounded" height={120} /> : null}
      {access.data && hosts.length === 0 ? (
        <Box sx={{ mb: 2 }}>
          <Typography sx={{ color: 'text.secondary', mb: 1 }}>{t('account.reach.empty')}</Typography>
          <WhomToAsk contacts={access.data.contacts} />
        </Box>
      ) : null}
      {hosts.length > 0 ? (
        <List dense disablePadding sx={{ mb: 2 }} aria-label={t('account.reach.hosts')}>
          {hosts.map((host) => (
            <ListItem key={host.id} disableGutters>
              <ListItemIcon sx={{ minWidth: 36 }}>
                <DnsOutlined fontSize="small" aria-hidden />
              </ListItemIcon>
              <ListItemText
                primary={host.hostname}
                secondary={host.kinds.map((kind) => t(`account.access.kind.${kind}`)).join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      ) : null}
      {reach.data && reach.data.groups.length > 0 ? (
        <>
          <Typography variant="overline" component="h3" sx={{ color: 'text.secondary' }}>
            {t('account.reach.groups')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
            {reach.data.groups.map((group) => (
              <Chip key={group} label={group} size="small" variant="outlined" />
            ))}
          </Box>
        </>
      ) : null}
    </SectionCard>
  );
}
