import HttpsOutlined from '@mui/icons-material/HttpsOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { IngressCertificate } from '../api/ingress-tls';
import { useIngressTls } from '../api/ingress-tls';
import { CertificateForm } from './certificate-form';
import { ExpiryAlert } from './expiry-alert';
import { FactList } from './fact-list';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';
import { intlLocale } from '../../../lib/format';

function CertificateFacts({ certificate }: { certificate: IngressCertificate }) {
  const { t, i18n } = useTranslation();
  if (!certificate.installed)
    return <Typography sx={{ color: 'text.secondary' }}>{t('settings.certificate.none')}</Typography>;
  const days = certificate.days_until_expiry;
  return (
    <>
      <ExpiryAlert kind="certificate" days={days} />
      <FactList
        facts={[
          { label: t('settings.certificate.subject'), value: certificate.subject ?? '-' },
          { label: t('settings.certificate.issuer'), value: certificate.issuer ?? '-' },
          {
            label: t('settings.certificate.names'),
            value:
              certificate.subject_alternative_names.length > 0 ? (
                <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {certificate.subject_alternative_names.map((name) => (
                    <Chip key={name} size="small" variant="outlined" label={name} />
                  ))}
                </Box>
              ) : (
                '-'
              ),
          },
          { label: t('settings.certificate.validFrom'), value: formatDateTime(certificate.valid_from) },
          { label: t('settings.certificate.validTo'), value: formatDateTime(certificate.valid_to) },
          {
            label: t('settings.certificate.daysLeft'),
            value:
              days === null
                ? '-'
                : days < 0
                  ? t('settings.certificate.expired')
                  : days.toLocaleString(intlLocale(i18n.language)),
          },
          {
            label: t('settings.certificate.https'),
            value:
              certificate.https_port === null
                ? t('settings.certificate.httpsOff')
                : t('settings.certificate.httpsOn', { port: certificate.https_port }),
          },
          {
            label: t('settings.certificate.fingerprint'),
            value: (
              <Box component="span" sx={{ fontFamily: 'monospace', fontSize: 12 }}>
                {certificate.fingerprint_sha256 ?? '-'}
              </Box>
            ),
          },
        ]}
      />
    </>
  );
}

/** The ingress certificate (spec §3): its details and expiry; upload a chain and key with manage-license. */
export function CertificateSection({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const certificate = useIngressTls();
  return (
    <SectionCard
      icon={HttpsOutlined}
      title={t('settings.certificate.title')}
      subtitle={t('settings.certificate.subtitle')}
    >
      {certificate.isPending ? (
        <Skeleton variant="rounded" height={200} />
      ) : certificate.isError ? (
        <LoadFailed error={certificate.error} onRetry={() => void certificate.refetch()} />
      ) : (
        <CertificateFacts certificate={certificate.data} />
      )}
      {canManage ? (
        <>
          <Divider sx={{ my: 3 }} />
          <CertificateForm />
        </>
      ) : null}
    </SectionCard>
  );
}
