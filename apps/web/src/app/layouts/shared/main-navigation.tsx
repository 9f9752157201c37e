import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useThemeSettings } from '../../providers/theme-settings-context';
import { NavCounts } from './nav-counts';
import { MAIN_NAVIGATION_LABEL, useNavItems } from './use-nav-items';

/**
 * The vertical main navigation (spec §2.3): permitted entries in order, counts beside them, the
 * current one highlighted, and the selected view's name underneath, subdued (the spec's disabled
 * text, in a colour that keeps a readable contrast). `mini` shows the
 * icons only (a collapsed rail); `tooltips` then names each icon on hover and focus.
 */
export function MainNavigation({ mini = false, tooltips = false }: { mini?: boolean; tooltips?: boolean }) {
  const { t } = useTranslation();
  const { settings } = useThemeSettings();
  const { items, counts, current } = useNavItems();
  const pill = settings.themeStyle === 'modern';

  return (
    <nav aria-label={MAIN_NAVIGATION_LABEL}>
      <List sx={{ px: mini ? 1 : 1.5, py: 1.5, display: 'flex', flexDirection: 'column', gap: 0.25 }}>
        {items.map(({ entry, label, active, countsId }) => {
          const Icon = entry.icon;
          const link = (
            <ListItemButton
              component={RouterLink}
              to={entry.path}
              selected={active}
              aria-current={active ? 'page' : undefined}
              aria-label={label}
              aria-describedby={countsId}
              sx={(theme) => ({
                borderRadius: pill ? '999px' : '6px',
                py: 0.9,
                px: mini ? 0 : 2,
                justifyContent: mini ? 'center' : 'flex-start',
                color: 'text.secondary',
                '& .MuiListItemIcon-root': { color: 'inherit', minWidth: mini ? 0 : 38 },
                '&:hover': { color: 'text.primary' },
                '&.Mui-selected, &.Mui-selected:hover': {
                  color: theme.palette.primary.contrastText,
                  bgcolor: theme.palette.primary.main,
                  boxShadow: `0 6px 16px ${alpha(theme.palette.primary.main, 0.35)}`,
                  // Counts on the selected entry: white on a darker tint of it, whatever their colour.
                  '& .MuiChip-root': {
                    color: theme.palette.primary.contrastText,
                    bgcolor: 'rgba(0,0,0,0.28)',
                    borderColor: alpha(theme.palette.primary.contrastText, 0.6),
                  },
                },
              })}
            >
              <ListItemIcon>
                <Icon fontSize="small" aria-hidden />
              </ListItemIcon>
              {mini ? null : (
                <ListItemText
                  primary={label}
                  slotProps={{ primary: { noWrap: true, sx: { fontWeight: 500, fontSize: '0.92rem' } } }}
                />
              )}
              {entry.counts && countsId ? (
                <NavCounts id={countsId} keys={entry.counts} counts={counts} chips={!mini} />
              ) : null}
            </ListItemButton>
          );
          return (
            <li key={entry.id}>
              {mini && tooltips ? (
                <Tooltip title={label} placement="right">
                  {link}
                </Tooltip>
              ) : (
                link
              )}
            </li>
          );
        })}
      </List>
      {current && !mini ? (
        <Typography
          variant="caption"
          component="p"
          data-testid="current-view"
          sx={{ px: 3, pb: 1.5, color: 'text.secondary', fontStyle: 'italic' }}
        >
          {t('layout.currentView', { name: current.label })}
        </Typography>
      ) : null}
    </nav>
  );
}
