import AddOutlined from '@mui/icons-material/AddOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import { hasPermission } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import type { TunnelItem } from '../api/list-tunnels';
import { TUNNEL_TYPES, useAllTunnels } from '../api/list-tunnels';
import type { TunnelAction, TunnelTab } from './tunnel-columns';
import { TunnelDialogs } from './tunnel-dialogs';
import { TunnelTable } from './tunnel-table';

const TABS: readonly TunnelTab[] = [...TUNNEL_TYPES, 'all'];

/** /tunnels (list-all-tunnel-definitions): definitions by type, each tab its own grid. */
export function TunnelsPage() {
  const { t } = useTranslation();
  const tabsId = useId();
  const { user } = useSession();
  const tunnels = useAllTunnels();
  const canCreate = hasPermission(user, ['create-tunnel-definition']);
  const canModify = hasPermission(user, ['modify-tunnel-definition']);
  const [tab, setTab] = useState<TunnelTab>('ssh');
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<{ action: TunnelAction; id: string } | null>(null);
  const onAction = useCallback((next: TunnelAction, item: TunnelItem) => setAction({ action: next, id: item.id }), []);
  const lists = tunnels.data;
  const all = lists ? TUNNEL_TYPES.flatMap((type) => lists[type]) : undefined;
  const rows = tab === 'all' ? all : lists?.[tab];
  const count = (which: TunnelTab) => (which === 'all' ? all?.length : lists?.[which].length);

  const createButton = canCreate ? (
    <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setCreating(true)}>
      {t('tunnels.create')}
    </Button>
  ) : null;

  return (
    <Box>
      <PageHeader title={t('pages.tunnels')} subtitle={t('tunnels.subtitle')} actions={createButton} />
      <Tabs
        value={tab}
        onChange={(_event, value: TunnelTab) => setTab(value)}
        aria-label={t('tunnels.tabsLabel')}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((which) => (
          <Tab
            key={which}
            value={which}
            id={`${tabsId}-${which}`}
            aria-controls={`${tabsId}-panel`}
            label={
              count(which) === undefined
                ? t(`tunnels.tabs.${which}`)
                : `${t(`tunnels.tabs.${which}`)} (${String(count(which))})`
            }
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${tab}`}>
        <TunnelTable
          key={tab}
          tab={tab}
          rows={rows}
          loading={tunnels.isLoading}
          error={tunnels.error}
          onRetry={() => void tunnels.refetch()}
          canModify={canModify}
          onAction={onAction}
          createButton={createButton}
        />
      </Box>
      <TunnelDialogs
        creating={creating}
        createType={tab === 'all' ? 'ssh' : tab}
        onCreateClose={() => setCreating(false)}
        action={action}
        all={all ?? []}
        onActionClose={() => setAction(null)}
      />
    </Box>
  );
}
