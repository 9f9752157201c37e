import Apple from '@mui/icons-material/Apple';
import Microsoft from '@mui/icons-material/Microsoft';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { useTranslation } from 'react-i18next';
import type { IconComponent } from '../../../components/icon-type';
import { formatDateTime, parseServerTime } from '../../../lib/dates';
import { useNow } from '../../../lib/use-now';
import type { AgentItem } from '../api/list-agents';

dayjs.extend(relativeTime);

/** How each state of a host's agent shows: a colour and the words that carry the meaning. */
const STATES: Record<AgentItem['state'], { color: string; key: string }> = {
  connected: { color: 'success.main', key: 'hosts.status.connected' },
  reconnecting: { color: 'warning.main', key: 'hosts.status.reconnecting' },
  disconnected: { color: 'text.disabled', key: 'hosts.status.disconnected' },
};

/**
 * A coloured dot with the words Connected, Reconnecting (its server restarted and the agent is
 * expected back within seconds) or Disconnected; the words carry the meaning.
 */
export function ConnectionStatus({ state }: { state: AgentItem['state'] }) {
  const { t } = useTranslation();
  const shown = STATES[state];
  const live = state === 'connected';
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box
        aria-hidden
        sx={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          flexShrink: 0,
          bgcolor: shown.color,
          boxShadow: live ? (theme) => `0 0 0 3px ${theme.palette.success.main}33` : 'none',
        }}
      />
      <Typography
        variant="body2"
        component="span"
        sx={{ color: state === 'disconnected' ? 'text.secondary' : shown.color }}
      >
        {t(shown.key)}
      </Typography>
    </Box>
  );
}

const OS: Record<number, { icon: IconComponent; key: string }> = {
  1: { icon: TerminalOutlined, key: 'hosts.os.linux' },
  2: { icon: Microsoft, key: 'hosts.os.windows' },
  3: { icon: Apple, key: 'hosts.os.macos' },
};

/** The OS code of spec §3 (Linux 1, Windows 2, MacOS 3) as an icon and a name. */
export function OsLabel({ os }: { os: number }) {
  const { t } = useTranslation();
  const known = OS[os] ?? OS[1];
  if (!known) return null;
  const Icon = known.icon;
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Icon fontSize="small" aria-hidden sx={{ color: 'text.secondary' }} />
      <span>{t(known.key)}</span>
    </Box>
  );
}

/**
 * 'a minute ago', with the local 'L LT' time as a tooltip; 'Never' before the first contact. A
 * connected host was heard from in the last 15 seconds, so it reads 'Now'.
 */
export function LastSeen({ value, connected }: { value: string | null; connected: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000);
  if (!value) return <span>{t('hosts.neverSeen')}</span>;
  const exact = formatDateTime(value);
  const seen = parseServerTime(value);
  // A heartbeat newer than the ticking clock reads as just now, never as in the future.
  const relative = connected
    ? t('hosts.seenNow')
    : seen.locale(dayjs.locale()).from(dayjs(Math.max(now, seen.valueOf())));
  return (
    <Tooltip title={exact} describeChild>
      <Box component="time" dateTime={value} lang={i18n.language}>
        {relative}
      </Box>
    </Tooltip>
  );
}
