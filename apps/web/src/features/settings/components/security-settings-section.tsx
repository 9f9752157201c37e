import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { useSaveSecurity, useSecuritySettingsForEdit } from '../api/security-settings';
import { toSecurityForm } from '../model/security-form';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';
import { SecuritySettingsForm } from './security-settings-form';

/** Security settings (manage-settings): single-use and freshness limiting, the limited endpoints, the token lifetime. */
export function SecuritySettingsSection() {
  const { t } = useTranslation();
  const security = useSecuritySettingsForEdit();
  const save = useSaveSecurity();
  return (
    <SectionCard icon={ShieldOutlined} title={t('settings.security.title')} subtitle={t('settings.security.subtitle')}>
      {security.isPending ? (
        <Skeleton variant="rounded" height={280} />
      ) : security.isError ? (
        <LoadFailed error={security.error} onRetry={() => void security.refetch()} />
      ) : (
        <SecuritySettingsForm key={JSON.stringify(security.data)} initial={toSecurityForm(security.data)} save={save} />
      )}
    </SectionCard>
  );
}
