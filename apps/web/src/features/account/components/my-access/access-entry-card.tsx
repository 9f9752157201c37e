import DesktopWindowsOutlined from '@mui/icons-material/DesktopWindowsOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import LanOutlined from '@mui/icons-material/LanOutlined';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { AccessEntry } from '../../api/my-access';
import { CommandBlock } from './command-block';

const KIND_ICONS = { ssh: TerminalOutlined, rdp: DesktopWindowsOutlined, generic: LanOutlined } as const;
/** Left-to-right inside any sentence (U+2066 … U+2069): a path or a command stays readable in Arabic. */
function ltr(text: string): string {
  return `\u2066${text}\u2069`;
}

const STATE_COLOURS = { connected: 'success', reconnecting: 'warning', disconnected: 'default' } as const;

/** How the user is admitted: named on the definition, and/or through which groups. */
function viaText(entry: AccessEntry, t: (key: string, options?: Record<string, unknown>) => string): string {
  const parts: string[] = [];
  if (entry.via.direct) parts.push(t('account.access.viaDirect'));
  if (entry.via.groups.length > 0) parts.push(t('account.access.viaGroups', { groups: entry.via.groups.join(', ') }));
  return parts.join(' · ');
}

/** One host the user reaches through one definition: what it is, how they are admitted, and the commands. */
export function AccessEntryCard({ entry }: { entry: AccessEntry }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { commands } = entry;
  const host = entry.host.hostname;
  const Icon = KIND_ICONS[entry.definition.type];
  return (
    <Paper component="article" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 2.5 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: 0.5 }}>
        <DnsOutlined sx={{ color: 'primary.main' }} aria-hidden />
        <Typography id={headingId} variant="h3" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {host}
        </Typography>
        <Chip
          size="small"
          icon={<Icon aria-hidden />}
          label={t(`account.access.kind.${entry.definition.type}`)}
          variant="outlined"
        />
        <Chip
          size="small"
          color={STATE_COLOURS[entry.host.state]}
          label={t(`account.access.state.${entry.host.state}`)}
          variant={entry.host.state === 'connected' ? 'filled' : 'outlined'}
        />
        {entry.uses.includes('forward') ? (
          <Chip size="small" label={t('account.access.forwarding')} variant="outlined" />
        ) : null}
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2, overflowWrap: 'anywhere' }}>
        {t('account.access.definition', { name: entry.definition.name, port: entry.port })}
        {entry.ssh_login ? ` · ${t('account.access.login', { login: entry.ssh_login })}` : ''} · {viaText(entry, t)}
      </Typography>
      {commands.ssh ? (
        <CommandBlock
          label={t('account.access.commands.ssh')}
          command={commands.ssh}
          copyLabel={t('account.access.copy.ssh', { host })}
        />
      ) : null}
      {commands.scp ? (
        <CommandBlock
          label={t('account.access.commands.scp')}
          command={commands.scp}
          copyLabel={t('account.access.copy.scp', { host })}
        />
      ) : null}
      {commands.sftp ? (
        <CommandBlock
          label={t('account.access.commands.sftp')}
          command={commands.sftp}
          copyLabel={t('account.access.copy.sftp', { host })}
        />
      ) : null}
      {commands.ssh_config ? (
        <CommandBlock
          label={t('account.access.commands.sshConfig', {
            file: ltr('~/.ssh/config'),
            command: ltr(`ssh ${commands.ssh_alias ?? ''}`),
          })}
          command={commands.ssh_config}
          copyLabel={t('account.access.copy.sshConfig', { host })}
        />
      ) : null}
      {commands.desktop_path ? (
        <Box sx={{ mb: 2 }}>
          <Button
            variant="contained"
            component={RouterLink}
            to={commands.desktop_path}
            startIcon={<DesktopWindowsOutlined />}
          >
            {t('account.access.openDesktop', { host })}
          </Button>
        </Box>
      ) : null}
      {commands.tunnel ? (
        <CommandBlock
          label={t('account.access.commands.tunnel', { port: entry.port })}
          command={commands.tunnel}
          copyLabel={t('account.access.copy.tunnel', { host })}
        />
      ) : null}
    </Paper>
  );
}
