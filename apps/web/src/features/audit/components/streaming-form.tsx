import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import type { AuditStreaming, AuditStreamingBody } from '../api/streaming';
import { useSaveAuditStreaming } from '../api/streaming';
import { SinkStatus } from './sink-status';

const FACILITIES = [
  'authpriv',
  'auth',
  'local0',
  'local1',
  'local2',
  'local3',
  'local4',
  'local5',
  'local6',
  'local7',
] as const;

/** A random secret for the webhook: 32 bytes as hex, made in the browser, shown once for the receiver. */
function newSecret(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A sink's part of the form: a region named by its heading. */
function Section({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <Box>
        <Typography id={headingId} variant="h3" component="h2">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {hint}
        </Typography>
      </Box>
      {children}
    </Paper>
  );
}

/** Both sinks' settings with their status; the webhook secret is typed, never shown back. */
export function StreamingForm({ current }: { current: AuditStreaming }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const save = useSaveAuditStreaming();
  const [syslog, setSyslog] = useState(current.syslog);
  const [webhook, setWebhook] = useState({ enabled: current.webhook.enabled, url: current.webhook.url });
  const [secret, setSecret] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: AuditStreamingBody = {
      syslog: { ...syslog, host: syslog.host.trim() },
      webhook: { ...webhook, ...(secret ? { secret } : {}) },
    };
    save.mutate(body, {
      onSuccess: () => {
        setSecret('');
        snackbar.success(t('audit.streaming.saved'));
      },
      onError: (error) => snackbar.error(errorText(error)),
    });
  };

  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, maxWidth: 880 }}>
      <Section title={t('audit.streaming.syslog.title')} hint={t('audit.streaming.syslog.hint')}>
        <FormControlLabel
          control={
            <Switch checked={syslog.enabled} onChange={(e) => setSyslog({ ...syslog, enabled: e.target.checked })} />
          }
          label={t('audit.streaming.enabled')}
        />
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <TextField
            label={t('audit.streaming.syslog.host')}
            value={syslog.host}
            onChange={(e) => setSyslog({ ...syslog, host: e.target.value })}
            required={syslog.enabled}
            sx={{ flex: '3 1 240px' }}
            slotProps={{ htmlInput: { dir: 'ltr', maxLength: 253 } }}
          />
          <TextField
            label={t('audit.streaming.syslog.port')}
            type="number"
            value={syslog.port}
            onChange={(e) => setSyslog({ ...syslog, port: Number(e.target.value) })}
            sx={{ flex: '1 1 110px' }}
            slotProps={{ htmlInput: { min: 1, max: 65535, dir: 'ltr' } }}
          />
          <TextField
            select
            label={t('audit.streaming.syslog.facility')}
            value={syslog.facility}
            onChange={(e) => setSyslog({ ...syslog, facility: e.target.value as typeof syslog.facility })}
            sx={{ flex: '1 1 150px' }}
          >
            {FACILITIES.map((name) => (
              <MenuItem key={name} value={name} dir="ltr">
                {name}
              </MenuItem>
            ))}
          </TextField>
        </Box>
        <FormControlLabel
          control={<Switch checked={syslog.tls} onChange={(e) => setSyslog({ ...syslog, tls: e.target.checked })} />}
          label={t('audit.streaming.syslog.tls')}
        />
        {syslog.tls ? (
          <TextField
            label={t('audit.streaming.syslog.ca')}
            helperText={t('audit.streaming.syslog.caHint')}
            value={syslog.ca}
            onChange={(e) => setSyslog({ ...syslog, ca: e.target.value })}
            multiline
            minRows={3}
            maxRows={8}
            slotProps={{
              htmlInput: { dir: 'ltr', spellCheck: false, style: { fontFamily: 'monospace', fontSize: 12 } },
            }}
          />
        ) : null}
        <SinkStatus status={current.status.syslog} enabled={current.syslog.enabled} />
      </Section>
      <Section title={t('audit.streaming.webhook.title')} hint={t('audit.streaming.webhook.hint')}>
        <FormControlLabel
          control={
            <Switch checked={webhook.enabled} onChange={(e) => setWebhook({ ...webhook, enabled: e.target.checked })} />
          }
          label={t('audit.streaming.enabled')}
        />
        <TextField
          label={t('audit.streaming.webhook.url')}
          type="url"
          value={webhook.url}
          onChange={(e) => setWebhook({ ...webhook, url: e.target.value })}
          required={webhook.enabled}
          placeholder="https://siem.example.com/gatehouse"
          slotProps={{ htmlInput: { dir: 'ltr', maxLength: 2000 } }}
        />
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <TextField
            label={t('audit.streaming.webhook.secret')}
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoComplete="off"
            helperText={
              current.webhook.secret_set
                ? t('audit.streaming.webhook.secretSet')
                : t('audit.streaming.webhook.secretNone')
            }
            sx={{ flex: '1 1 320px' }}
            slotProps={{ htmlInput: { dir: 'ltr', minLength: 16, maxLength: 200, spellCheck: false } }}
          />
          <Button onClick={() => setSecret(newSecret())} sx={{ mt: 1 }}>
            {t('audit.streaming.webhook.generate')}
          </Button>
        </Box>
        <SinkStatus status={current.status.webhook} enabled={current.webhook.enabled} />
      </Section>
      <Box>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {t('common.save')}
        </Button>
      </Box>
    </Box>
  );
}
