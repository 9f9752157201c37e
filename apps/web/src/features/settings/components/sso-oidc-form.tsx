import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import type { ConnectionTestState } from './sso-connection-test';
import { SsoConnectionTest } from './sso-connection-test';
import { SsoCopyField } from './sso-copy-field';
import type { ProviderFormProps } from './sso-fields';
import { FieldGroupHeading, SsoTextField, useTextBinder } from './sso-fields';
import type { OidcForm } from './sso-form-model';
import { SsoSecretField } from './sso-secret-field';

/** OpenID Connect (auth type 3): the address to register, then the provider and this client at it. */
export function SsoOidcForm(
  props: ProviderFormProps<OidcForm> & {
    secretSet: boolean;
    redirectUri: string;
    test: ConnectionTestState;
    onTest: () => void;
  },
) {
  const { t } = useTranslation();
  const bind = useTextBinder(props);
  return (
    <Grid container spacing={2.5}>
      <Grid size={12}>
        <FieldGroupHeading
          title={t('settings.sso.registerHeading')}
          description={t('settings.sso.oidc.registerHelper')}
        />
      </Grid>
      <Grid size={12}>
        <SsoCopyField label={t('settings.sso.oidc.redirectUri')} value={props.redirectUri} />
      </Grid>

      <Grid size={12}>
        <FieldGroupHeading title={t('settings.sso.oidc.providerHeading')} />
      </Grid>
      <Grid size={12}>
        <SsoTextField
          label={t('settings.sso.oidc.wellKnownUrl')}
          helper={t('settings.sso.oidc.wellKnownUrlHelper')}
          placeholder="https://idp.example.com/.well-known/openid-configuration"
          inputMode="url"
          required={props.active}
          {...bind('wellKnownUrl')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoTextField
          label={t('settings.sso.oidc.clientId')}
          helper={t('settings.sso.oidc.clientIdHelper')}
          required={props.active}
          {...bind('clientId')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoSecretField
          label={t('settings.sso.oidc.clientSecret')}
          stored={props.secretSet}
          helper={t('settings.sso.oidc.clientSecretNone')}
          {...bind('clientSecret')}
        />
      </Grid>
      <Grid size={12}>
        <SsoTextField
          label={t('settings.sso.oidc.scope')}
          helper={t('settings.sso.oidc.scopeHelper')}
          placeholder="profile email openid"
          {...bind('scope')}
        />
      </Grid>
      <Grid size={12}>
        <SsoConnectionTest test={props.test} onTest={props.onTest} description={t('settings.sso.oidc.testHelper')} />
      </Grid>
    </Grid>
  );
}
