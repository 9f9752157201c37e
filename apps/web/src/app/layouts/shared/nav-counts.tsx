import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { ChipProps } from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import type { NavCountKey, NavigationCounts } from '../../../lib/feature';
import { formatCount } from '../../../lib/format';

/** The chip colour of a count: live and unhealthy counts stand out, health shows its state. */
function chipColor(key: NavCountKey, value: number | string): ChipProps['color'] {
  if (key === 'systemStatusHealthSummary')
    return value === 'Healthy' ? 'success' : value === 'Problem' ? 'warning' : 'error';
  if (key === 'liveSessions') return value === 0 ? 'default' : 'error';
  if (key === 'connectedHosts') return value === 0 ? 'default' : 'success';
  if (key === 'totalUnhealthyPods') return value === 0 ? 'default' : 'error';
  return 'default';
}

/**
 * The counts beside a navigation entry, only those the server sent (spec §2.3). Each badge says
 * what it counts in a tooltip and its accessible label (two bare numbers side by side explained
 * nothing); the link is described by all of them. `chips` false (a collapsed mini rail) keeps
 * only the hidden description screen readers announce.
 */
export function NavCounts({
  id,
  keys,
  counts,
  chips = true,
}: {
  id: string;
  keys: readonly NavCountKey[];
  counts: NavigationCounts | undefined;
  chips?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const present = keys.flatMap((key) => {
    const value = counts?.[key];
    return value === undefined ? [] : [{ key, value }];
  });
  if (present.length === 0) return null;
  const label = (key: NavCountKey, value: number | string) =>
    typeof value === 'number' ? formatCount(value, i18n.language) : t(`health.${value}`);
  const description = present.map(({ key, value }) => `${t(`navCounts.${key}`)}: ${label(key, value)}`).join(', ');
  const hidden = (
    <span id={id} hidden>
      {description}
    </span>
  );
  if (!chips) return hidden;
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexShrink: 0 }}>
      {hidden}
      {present.map(({ key, value }) => {
        const says = `${t(`navCounts.${key}`)}: ${label(key, value)}`;
        return (
          <Tooltip key={key} title={says} placement="top" describeChild={false}>
            <Chip
              size="small"
              role="img"
              aria-label={says}
              label={label(key, value)}
              color={chipColor(key, value)}
              variant={chipColor(key, value) === 'default' ? 'filled' : 'outlined'}
              sx={{ minWidth: 24, cursor: 'inherit', pointerEvents: 'auto' }}
            />
          </Tooltip>
        );
      })}
    </Box>
  );
}
