import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import {
  KEY_PLACEHOLDER,
  agentCommand,
  agentEnvironment,
  consoleOrigin,
  installCommand,
} from '../../../../lib/agent-command';
import { CommandField } from './command-field';
import type { ChosenKey } from './key-chooser';

/**
 * The command to run on the new host: the one-line install from this server (Linux, systemd), then
 * the agent run from a clone, and the same as environment variables. A new key's secret
 * is filled in; for an existing key (or none) a placeholder stands in, with why.
 */
export function CommandSteps({ chosen }: { chosen: ChosenKey | null }) {
  const { t } = useTranslation();
  const secret = chosen?.kind === 'generated' ? chosen.key.key : KEY_PLACEHOLDER;
  const origin = consoleOrigin();
  return (
    <Box>
      <Typography variant="h4" component="h3" sx={{ mb: 1 }}>
        {t('hosts.addDialog.runTitle')}
      </Typography>
      <Stack spacing={2}>
        {chosen?.kind === 'generated' ? (
          <Alert severity="warning" variant="outlined">
            {t('hosts.addDialog.secretOnce')}
          </Alert>
        ) : null}
        {chosen?.kind === 'existing' ? (
          <Alert severity="info" variant="outlined">
            {t('hosts.addDialog.placeholder', { placeholder: KEY_PLACEHOLDER, description: chosen.key.description })}
          </Alert>
        ) : null}
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('hosts.addDialog.installText')}
        </Typography>
        <CommandField
          label={t('hosts.addDialog.installCommand')}
          value={installCommand(origin, secret)}
          copyLabel={t('hosts.addDialog.copyInstallCommand')}
        />
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('hosts.addDialog.runText')}
        </Typography>
        <CommandField
          label={t('hosts.addDialog.command')}
          value={agentCommand(origin, secret)}
          copyLabel={t('hosts.addDialog.copyCommand')}
        />
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('hosts.addDialog.envText')}
        </Typography>
        <CommandField
          label={t('hosts.addDialog.environment')}
          value={agentEnvironment(origin, secret)}
          copyLabel={t('hosts.addDialog.copyEnvironment')}
        />
      </Stack>
    </Box>
  );
}
