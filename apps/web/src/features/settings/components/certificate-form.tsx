import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { useSaveIngressTls } from '../api/ingress-tls';
import { PemField } from './pem-field';

/** Largest texts the server takes (packages/contracts routes/license.ts). */
const MAX_CHAIN = 64 * 1024;
const MAX_KEY = 16 * 1024;

/** A field's problem before sending: empty, or text without a PEM block of the expected kind. */
function pemProblem(text: string, marker: RegExp): 'required' | 'notPem' | undefined {
  if (text.trim() === '') return 'required';
  return marker.test(text) ? undefined : 'notPem';
}

/** Upload a PEM certificate chain and its private key, pasted or chosen from files. */
export function CertificateForm() {
  const { t } = useTranslation();
  const headingId = useId();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const save = useSaveIngressTls();
  const [certificate, setCertificate] = useState('');
  const [key, setKey] = useState('');
  const [tried, setTried] = useState(false);
  const chainProblem = pemProblem(certificate, /-----BEGIN CERTIFICATE-----/);
  const keyProblem = pemProblem(key, /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  const problemText = (problem: 'required' | 'notPem' | undefined, kind: 'chain' | 'key') =>
    tried && problem ? t(`settings.certificate.errors.${kind}.${problem}`) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (chainProblem || keyProblem) return;
    save.mutate(
      { certificate, private_key: key },
      {
        onSuccess: () => {
          setCertificate('');
          setKey('');
          setTried(false);
          snackbar.success(t('settings.certificate.installed'));
        },
      },
    );
  };
  const edit = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    if (save.isError) save.reset();
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('settings.certificate.uploadTitle')}
      </Typography>
      {save.isError ? (
        <Alert severity="error" variant="outlined" sx={{ mb: 2 }}>
          {t('settings.certificate.refused', { message: errorText(save.error) })}
        </Alert>
      ) : null}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <PemField
            label={t('settings.certificate.chain')}
            helperText={t('settings.certificate.chainHelper')}
            chooseLabel={t('settings.certificate.chooseChain')}
            value={certificate}
            error={problemText(chainProblem, 'chain')}
            onChange={edit(setCertificate)}
            maxLength={MAX_CHAIN}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <PemField
            label={t('settings.certificate.key')}
            helperText={t('settings.certificate.keyHelper')}
            chooseLabel={t('settings.certificate.chooseKey')}
            value={key}
            error={problemText(keyProblem, 'key')}
            onChange={edit(setKey)}
            maxLength={MAX_KEY}
          />
        </Grid>
      </Grid>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button type="submit" variant="contained" loading={save.isPending}>
          {t('settings.certificate.upload')}
        </Button>
      </Box>
    </Box>
  );
}
