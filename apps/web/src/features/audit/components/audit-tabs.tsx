import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { isAdmin } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';

/** The audit screen's two views: the trail, and (administrators) where it is streamed. */
export function AuditTabs({ current }: { current: 'entries' | 'streaming' }) {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!isAdmin(user)) return null;
  return (
    <Tabs value={current} sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }} aria-label={t('audit.tabs.label')}>
      <Tab value="entries" label={t('audit.tabs.entries')} component={RouterLink} to="/audit" />
      <Tab value="streaming" label={t('audit.tabs.streaming')} component={RouterLink} to="/audit/streaming" />
    </Tabs>
  );
}
