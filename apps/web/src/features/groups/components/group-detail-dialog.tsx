import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupItem } from '../api/list-groups';
import { GroupAgentsTab } from './group-agents-tab';
import { GroupChildrenTab } from './group-children-tab';
import { parentsOf } from './group-tree';
import { GroupUsersTab } from './group-users-tab';

type TabId = 'users' | 'agents' | 'groups';
const TABS: readonly TabId[] = ['users', 'agents', 'groups'];

/** Props of a group's detail: the group (null when closed) and every group, for nesting. */
export interface GroupDetailProps {
  group: GroupItem | null;
  groups: readonly GroupItem[];
  canModify: boolean;
  onClose: () => void;
}

/** One group: users, agents and child groups in tabs, each a searchable membership editor. */
export function GroupDetailDialog({ group, groups, canModify, onClose }: GroupDetailProps) {
  const { t } = useTranslation();
  const baseId = useId();
  const [tab, setTab] = useState<TabId>('users');
  const close = () => {
    setTab('users');
    onClose();
  };
  const counts: Record<TabId, number> = {
    users: group?.users.length ?? 0,
    agents: group?.agents.length ?? 0,
    groups: group?.groups.length ?? 0,
  };
  const parents = group ? parentsOf(groups, group.name) : [];

  return (
    <Dialog open={group !== null} onClose={close} aria-labelledby={`${baseId}-title`} fullWidth maxWidth="md">
      <DialogTitle id={`${baseId}-title`}>{t('groups.detail.title', { name: group?.name ?? '' })}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 420 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('groups.nestingNote')}
        </Typography>
        {parents.length > 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('groups.detail.nestedIn', { parents: parents.join(', ') })}
          </Typography>
        ) : null}
        <Tabs
          value={tab}
          onChange={(_event, value: TabId) => setTab(value)}
          aria-label={t('groups.detail.tabsLabel')}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ mt: 2, mb: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {TABS.map((id) => (
            <Tab
              key={id}
              value={id}
              id={`${baseId}-tab-${id}`}
              aria-controls={`${baseId}-panel-${id}`}
              label={t(`groups.detail.tabs.${id}`, { total: counts[id] })}
            />
          ))}
        </Tabs>
        {group ? (
          <Box role="tabpanel" id={`${baseId}-panel-${tab}`} aria-labelledby={`${baseId}-tab-${tab}`}>
            {tab === 'users' ? <GroupUsersTab group={group} canModify={canModify} /> : null}
            {tab === 'agents' ? <GroupAgentsTab group={group} canModify={canModify} /> : null}
            {tab === 'groups' ? <GroupChildrenTab group={group} groups={groups} canModify={canModify} /> : null}
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
