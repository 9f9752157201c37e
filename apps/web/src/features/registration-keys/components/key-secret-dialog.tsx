import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import type { GeneratedKey } from '../api/create-key';
import { agentCommand, consoleOrigin } from '../../../lib/agent-command';
import { formatDateTime } from '../../../lib/dates';
import { intlLocale } from '../../../lib/format';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85rem' };

/** A read-only, monospace field with a Copy button beside it. */
function CopyField({
  label,
  value,
  copyLabel,
  multiline,
}: {
  label: string;
  value: string;
  copyLabel: string;
  multiline?: boolean;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        label={label}
        value={value}
        fullWidth
        multiline={multiline}
        onFocus={(event) => event.target.select()}
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: MONO } }}
      />
      <CopyButton text={value} label={copyLabel} />
    </Box>
  );
}

/**
 * Shows a new key's secret this once, with its limits and the agent command that uses it. Only the Close
 * button closes it (not a stray click outside), since the secret cannot be shown again.
 */
export function KeySecretDialog({ generated, onClose }: { generated: GeneratedKey | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const key = generated?.key ?? '';
  return (
    <Dialog
      open={generated !== null}
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id={titleId}>
        {t('registrationKeys.secretDialog.title', { description: generated?.description ?? '' })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <Alert severity="warning" variant="outlined">
            {t('registrationKeys.secretDialog.warning')}
          </Alert>
          {generated ? (
            <Typography variant="body2">
              {t('registrationKeys.secretDialog.limits', {
                uses: generated.uses.toLocaleString(intlLocale(i18n.language)),
                date: formatDateTime(generated.expires_at),
              })}
            </Typography>
          ) : null}
          <CopyField
            label={t('registrationKeys.secretDialog.key')}
            value={key}
            copyLabel={t('registrationKeys.secretDialog.copyKey')}
          />
          <Box>
            <Typography variant="h4" component="h3" sx={{ mb: 1 }}>
              {t('registrationKeys.secretDialog.commandTitle')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
              {t('registrationKeys.secretDialog.commandText')}
            </Typography>
            <CopyField
              label={t('registrationKeys.secretDialog.command')}
              value={agentCommand(consoleOrigin(), key)}
              copyLabel={t('registrationKeys.secretDialog.copyCommand')}
              multiline
            />
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button variant="contained" onClick={onClose}>
          {t('registrationKeys.secretDialog.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
