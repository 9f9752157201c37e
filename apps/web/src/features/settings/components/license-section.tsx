import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import { useLicense } from '../api/license';
import type { License } from '../api/license';
import { licenseDays } from '../model/expiry';
import { ExpiryAlert } from './expiry-alert';
import { FactList } from './fact-list';
import { LicenseForm } from './license-form';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';
import { intlLocale } from '../../../lib/format';

const STATUS_COLOURS = { valid: 'success', expired: 'error', missing: 'default' } as const;

function LicenseFacts({ license, readAt }: { license: License; readAt: number }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => value.toLocaleString(intlLocale(i18n.language));
  // Days left as of when the licence was read (render stays pure; days change slowly).
  const days = licenseDays(license, readAt);
  const agents =
    license.max_agents === null
      ? t('settings.license.agentsUnlimited', { used: number(license.agents_used) })
      : t('settings.license.agentsOf', { used: number(license.agents_used), allowed: number(license.max_agents) });
  return (
    <>
      <ExpiryAlert kind="license" days={days} />
      <FactList
        facts={[
          {
            label: t('settings.license.status'),
            value: (
              <>
                <Chip
                  size="small"
                  variant="outlined"
                  color={STATUS_COLOURS[license.status]}
                  label={t(`settings.license.statuses.${license.status}`)}
                />
                {license.development ? (
                  <Chip
                    size="small"
                    variant="outlined"
                    color="warning"
                    label={t('settings.license.development')}
                    sx={{ ml: 1 }}
                  />
                ) : null}
              </>
            ),
          },
          { label: t('settings.license.customer'), value: license.customer ?? '-' },
          {
            label: t('settings.license.expires'),
            // Spec §3: the default expires text is 'Missing License'.
            value: license.expires ? formatDateTime(license.expires) : t('settings.license.missing'),
          },
          ...(days !== null
            ? [
                {
                  label: t('settings.license.daysLeft'),
                  value: days < 0 ? t('settings.license.expiredAgo') : number(days),
                },
              ]
            : []),
          { label: t('settings.license.agents'), value: agents },
          ...(license.issued_at
            ? [{ label: t('settings.license.issued'), value: formatDateTime(license.issued_at) }]
            : []),
          ...(license.license_id ? [{ label: t('settings.license.id'), value: license.license_id }] : []),
        ]}
      />
    </>
  );
}

/** The licence (spec §3): status, customer, local expiry, agents used and allowed; install one with manage-license. */
export function LicenseSection({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const license = useLicense();
  return (
    <SectionCard icon={VerifiedOutlined} title={t('settings.license.title')} subtitle={t('settings.license.subtitle')}>
      {license.isPending ? (
        <Skeleton variant="rounded" height={160} />
      ) : license.isError ? (
        <LoadFailed error={license.error} onRetry={() => void license.refetch()} />
      ) : (
        <LicenseFacts license={license.data} readAt={license.dataUpdatedAt} />
      )}
      {canManage ? (
        <>
          <Divider sx={{ my: 3 }} />
          <LicenseForm />
        </>
      ) : null}
    </SectionCard>
  );
}
