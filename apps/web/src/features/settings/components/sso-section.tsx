import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Skeleton from '@mui/material/Skeleton';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdmin } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import { useSaveSsoConfig, useSsoConfig } from '../api/sso-config';
import { LoadFailed } from './load-failed';
import { SectionCard } from './section-card';
import { SsoConfigForm } from './sso-config-form';

/** Single sign-on (manage-sso-config): the sign-in method and the LDAP, OpenID Connect and SAML settings. */
export function SsoSection() {
  const { t } = useTranslation();
  const config = useSsoConfig();
  const save = useSaveSsoConfig();
  // The server lets only the admin role save (the configuration decides who every account is).
  const { user } = useSession();
  // Bumped on each save, so the form starts again from the answer even when it equals the old one
  // (a replaced secret changes nothing the server shows).
  const [saves, setSaves] = useState(0);
  return (
    <SectionCard icon={KeyOutlined} title={t('settings.sso.title')} subtitle={t('settings.sso.subtitle')}>
      {config.isPending ? (
        <Skeleton variant="rounded" height={420} aria-label={t('common.loading')} />
      ) : config.isError ? (
        <LoadFailed error={config.error} onRetry={() => void config.refetch()} />
      ) : (
        // Keyed by the stored values, so another administrator's save resets the form to them.
        <SsoConfigForm
          key={`${saves}:${JSON.stringify(config.data)}`}
          config={config.data}
          save={save}
          onSaved={() => setSaves((count) => count + 1)}
          readOnly={!isAdmin(user)}
        />
      )}
    </SectionCard>
  );
}
