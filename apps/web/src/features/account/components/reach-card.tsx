import DnsOutlined from '@mui/icons-material/DnsOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useReach } from '../api/reach';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';

/** The groups the user belongs to (nesting included) and the agents they reach through them. */
export function ReachCard({ email }: { email: string | undefined }) {
  const { t } = useTranslation();
  const reach = useReach(email);
  const data = reach.data;
  const empty = data !== undefined && data.groups.length === 0 && data.agents.length === 0;
  return (
    <SectionCard icon={HubOutlined} title={t('account.reach.title')}>
      {reach.isError ? <LoadFailed error={reach.error} onRetry={() => void reach.refetch()} /> : null}
      {reach.isPending ? <Skeleton variant="rounded" height={120} /> : null}
      {empty ? <Typography sx={{ color: 'text.secondary' }}>{t('account.reach.empty')}</Typography> : null}
      {data && !empty ? (
        <>
          <Typography variant="overline" component="h3" sx={{ color: 'text.secondary' }}>
            {t('account.reach.groups')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap', mb: 2 }}>
            {data.groups.map((group) => (
              <Chip key={group} label={group} size="small" variant="outlined" />
            ))}
          </Box>
          <Typography variant="overline" component="h3" sx={{ color: 'text.secondary' }}>
            {t('account.reach.agents')}
          </Typography>
          {data.agents.length === 0 ? (
            <Typography sx={{ color: 'text.secondary' }}>{t('account.reach.noAgents')}</Typography>
          ) : (
            <List dense disablePadding>
              {data.agents.map((agent) => (
                <ListItem key={agent.id} disableGutters>
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <DnsOutlined fontSize="small" aria-hidden />
                  </ListItemIcon>
                  <ListItemText
                    primary={agent.hostname}
                    secondary={t('account.reach.via', { groups: agent.via.join(', ') })}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </>
      ) : null}
    </SectionCard>
  );
}
