import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../components/copy-button';
import { formatDateTime } from '../../../lib/dates';
import { type SigningKey, useSigningKey } from '../api/signing-key';
import { FactList } from './fact-list';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';
import { SsoCopyField } from './sso-copy-field';

/** Fingerprints and commands read left to right in every language. */
const code = { fontFamily: 'monospace', direction: 'ltr', unicodeBidi: 'isolate' } as const;

function EarlierKeys({ keys }: { keys: SigningKey['earlier_keys'] }) {
  const { t } = useTranslation();
  if (keys.length === 0)
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('settings.signatures.noEarlier')}
      </Typography>
    );
  return (
    <FactList
      facts={keys.map((key) => ({
        label: t('settings.signatures.retired', { date: formatDateTime(key.retired_at) }),
        value: (
          <Box component="span" sx={code}>
            {key.fingerprint}
          </Box>
        ),
      }))}
    />
  );
}

/**
 * The key that signs recordings: its fingerprint to copy (auditors check recordings with it, in
 * the console and with `npm run verify-recording -- --key`), where it is kept, a warning when that
 * is the data folder, and the keys used before (their recordings still verify).
 */
export function SigningKeySection() {
  const { t } = useTranslation();
  const key = useSigningKey();
  return (
    <SectionCard
      icon={VerifiedUserOutlined}
      title={t('settings.signatures.title')}
      subtitle={t('settings.signatures.subtitle')}
    >
      {key.isPending ? (
        <Skeleton variant="rounded" height={140} />
      ) : key.isError ? (
        <LoadFailed error={key.error} onRetry={() => void key.refetch()} />
      ) : (
        <>
          {key.data.with_data ? (
            <Alert severity="warning" variant="outlined" sx={{ mb: 2.5 }}>
              {t('settings.signatures.withData')}{' '}
              <Box component="code" sx={code}>
                openssl genpkey -algorithm ed25519 -out recording-key.pem
              </Box>
            </Alert>
          ) : null}
          <SsoCopyField
            label={t('settings.signatures.fingerprint')}
            value={key.data.fingerprint}
            helper={t('settings.signatures.fingerprintHelp')}
          />
          <Box sx={{ mt: 2.5 }}>
            <FactList
              facts={[
                { label: t('settings.signatures.source'), value: t(`settings.signatures.sources.${key.data.source}`) },
                {
                  label: t('settings.signatures.publicKey'),
                  value: <CopyButton text={key.data.public_key} label={t('settings.signatures.copyPublicKey')} />,
                },
              ]}
            />
          </Box>
          <Divider sx={{ my: 3 }} />
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            {t('settings.signatures.earlier')}
          </Typography>
          <EarlierKeys keys={key.data.earlier_keys} />
        </>
      )}
    </SectionCard>
  );
}
