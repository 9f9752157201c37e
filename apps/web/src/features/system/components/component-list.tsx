import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { parseServerTime } from '../../../lib/dates';
import type { Pod } from '../api/list-pods';
import { componentIcon, componentRole, componentTitle } from './component-names';
import { PodStatusChip } from './pod-status-chip';

const BORDER = { Running: 'success.main', Failed: 'error.main', Unknown: 'text.disabled' } as const;

/** Arrow keys move between the components' buttons (Home and End to the first and last). */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const keys = ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('[data-component-button]')];
  const at = buttons.indexOf(document.activeElement as HTMLElement);
  if (at === -1) return;
  const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
  const forward = event.key === 'ArrowDown' || event.key === (rtl ? 'ArrowLeft' : 'ArrowRight');
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? buttons.length - 1
        : (at + (forward ? 1 : -1) + buttons.length) % buttons.length;
  event.preventDefault();
  buttons[next]?.focus();
}

/**
 * The components as cards: name, state chip, what the check found and when. Choosing one shows
 * its log beside (or below, on narrow screens) the list.
 */
export function ComponentList(props: {
  pods: readonly Pod[] | undefined;
  selected: string | null;
  onSelect: (name: string) => void;
  logsId: string;
}) {
  const { t } = useTranslation();
  if (!props.pods) {
    return (
      <Box sx={{ display: 'grid', gap: 1.5 }} aria-busy="true" aria-label={t('common.loading')}>
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} variant="rounded" height={104} />
        ))}
      </Box>
    );
  }
  return (
    <Box
      component="ul"
      aria-label={t('systemStatus.components.label')}
      onKeyDown={moveFocus}
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 1.5 }}
      data-testid="component-list"
    >
      {props.pods.map((pod) => {
        const Icon = componentIcon(pod.name);
        const selected = pod.name === props.selected;
        const role = componentRole(pod.name, t);
        return (
          <Box component="li" key={pod.name} data-testid={`component-${pod.name}`} data-status={pod.status}>
            <Card
              sx={{
                borderInlineStartWidth: 4,
                borderInlineStartColor: BORDER[pod.status],
                ...(selected ? { outline: 2, outlineColor: 'primary.main', outlineOffset: -1 } : {}),
              }}
            >
              <CardActionArea
                data-component-button
                aria-pressed={selected}
                aria-controls={props.logsId}
                onClick={() => props.onSelect(pod.name)}
                sx={{
                  p: 2,
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'stretch',
                  justifyContent: 'flex-start',
                  gap: 0.75,
                  textAlign: 'start',
                }}
              >
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, minWidth: 0 }}>
                  <Icon sx={{ color: 'text.secondary' }} aria-hidden />
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <Typography variant="h4" component="h2" sx={{ overflowWrap: 'anywhere' }}>
                      {componentTitle(pod.name, t)}
                    </Typography>
                    {/* Wraps: cut to one line it read "Where session recordings are writt…" (issue 20). */}
                    {role ? (
                      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
                        {role}
                      </Typography>
                    ) : null}
                  </Box>
                  <PodStatusChip status={pod.status} />
                </Box>
                <Typography
                  variant="body2"
                  dir="auto"
                  sx={{ overflowWrap: 'anywhere', textAlign: 'start' }}
                  data-testid="component-detail"
                >
                  {pod.detail}
                </Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {t('systemStatus.checkedAt', { time: parseServerTime(pod.checked_at).format('LTS') })}
                </Typography>
              </CardActionArea>
            </Card>
          </Box>
        );
      })}
    </Box>
  );
}
