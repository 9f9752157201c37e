import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { alpha } from '@mui/material/styles';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useNavigationCounts } from '../../../features/system/api/navigation-counts';
import { useSession } from '../../../lib/use-session';
import { isEntryActive, visibleNavEntries } from '../../navigation';
import { NavCounts } from './nav-counts';

// The landmark keeps this one English name in every language, as the issue specifies, so browser
// tests find it whatever the language; the entries inside are translated.
const MAIN_NAVIGATION_LABEL = 'Main navigation';

/** The main navigation (spec §2.3): permitted entries in order, counts beside them, current highlighted. */
export function MainNavigation() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { pathname } = useLocation();
  const { data: counts } = useNavigationCounts();
  const baseId = useId();

  return (
    <nav aria-label={MAIN_NAVIGATION_LABEL}>
      <List sx={{ px: 1.5, py: 1.5, display: 'flex', flexDirection: 'column', gap: 0.25 }}>
        {visibleNavEntries(user).map((entry) => {
          const active = isEntryActive(entry, pathname);
          const label = t(entry.messageId);
          const countsId = `${baseId}-${entry.id}-counts`;
          const Icon = entry.icon;
          const hasCounts = entry.counts?.some((key) => counts?.[key] !== undefined) ?? false;
          return (
            <li key={entry.id}>
              <ListItemButton
                component={RouterLink}
                to={entry.path}
                selected={active}
                aria-current={active ? 'page' : undefined}
                aria-label={label}
                aria-describedby={hasCounts ? countsId : undefined}
                sx={(theme) => ({
                  borderRadius: 1.5,
                  py: 0.9,
                  color: 'text.secondary',
                  '& .MuiListItemIcon-root': { color: 'inherit', minWidth: 38 },
                  '&:hover': { color: 'text.primary' },
                  '&.Mui-selected, &.Mui-selected:hover': {
                    color: theme.palette.common.white,
                    bgcolor: alpha(theme.palette.primary.main, 0.9),
                    boxShadow: `0 6px 16px ${alpha(theme.palette.primary.main, 0.35)}`,
                  },
                })}
              >
                <ListItemIcon>
                  <Icon fontSize="small" aria-hidden />
                </ListItemIcon>
                <ListItemText
                  primary={label}
                  slotProps={{ primary: { sx: { fontWeight: 500, fontSize: '0.92rem' } } }}
                />
                {entry.counts ? <NavCounts id={countsId} keys={entry.counts} counts={counts} /> : null}
              </ListItemButton>
            </li>
          );
        })}
      </List>
    </nav>
  );
}
