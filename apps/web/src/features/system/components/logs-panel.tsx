import { ADMIN_ROLE } from '@gatehouse/contracts';
import LockOutlined from '@mui/icons-material/LockOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/use-session';
import type { Pod } from '../api/list-pods';
import { componentTitle } from './component-names';
import { LogViewer } from './log-viewer';
import { PodStatusChip } from './pod-status-chip';

/** A note in place of the log: why there is none, or what to do to see one. */
function Note({ icon: Icon, title, text, id }: { icon: typeof LockOutlined; title: string; text: string; id: string }) {
  return (
    <Box sx={{ py: { xs: 4, md: 8 }, px: 2, display: 'grid', justifyItems: 'center', gap: 1 }} data-testid={id}>
      <Icon sx={{ fontSize: 40, color: 'text.secondary' }} aria-hidden />
      <Typography variant="h3" component="p" sx={{ textAlign: 'center' }}>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', maxWidth: 460 }}>
        {text}
      </Typography>
    </Box>
  );
}

/**
 * The log side of the screen. Component logs are for holders of the admin role (spec §6); others
 * are told why, and still see every component's health.
 */
export function LogsPanel({ pod, id }: { pod: Pod | undefined; id: string }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const isAdmin = user?.roles.some((role) => role.name === ADMIN_ROLE) ?? false;
  const headingId = `${id}-heading`;
  let content;
  if (!isAdmin) {
    content = (
      <Note
        icon={LockOutlined}
        id="logs-admin-only"
        title={t('systemStatus.logs.adminOnly.title')}
        text={t('systemStatus.logs.adminOnly.text')}
      />
    );
  } else if (!pod) {
    content = (
      <Note
        icon={ReceiptLongOutlined}
        id="logs-choose"
        title={t('systemStatus.logs.choose.title')}
        text={t('systemStatus.logs.choose.text')}
      />
    );
  } else {
    content = <LogViewer key={pod.name} name={pod.name} />;
  }
  return (
    <Paper
      variant="outlined"
      component="section"
      id={id}
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}
      data-testid="logs-panel"
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="h3" component="h2" sx={{ flex: 1, minWidth: 0 }}>
          {pod && isAdmin
            ? t('systemStatus.logs.titleOf', { component: componentTitle(pod.name, t) })
            : t('systemStatus.logs.title')}
        </Typography>
        {pod && isAdmin ? <PodStatusChip status={pod.status} /> : null}
      </Box>
      {content}
    </Paper>
  );
}
