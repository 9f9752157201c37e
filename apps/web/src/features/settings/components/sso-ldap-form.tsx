import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import type { ConnectionTestState } from './sso-connection-test';
import { SsoConnectionTest } from './sso-connection-test';
import type { ProviderFormProps } from './sso-fields';
import { FieldGroupHeading, SsoTextField, useTextBinder } from './sso-fields';
import type { LdapForm } from './sso-form-model';
import { SsoSecretField } from './sso-secret-field';
import { SwitchField } from './switch-field';

/** Directory sign-in (auth type 4): where the directory is, the account that searches it, and how people are found. */
export function SsoLdapForm(
  props: ProviderFormProps<LdapForm> & { passwordSet: boolean; test: ConnectionTestState; onTest: () => void },
) {
  const { t } = useTranslation();
  const bind = useTextBinder(props);
  return (
    <Grid container spacing={2.5}>
      <Grid size={12}>
        <FieldGroupHeading
          title={t('settings.sso.ldap.connectionHeading')}
          description={t('settings.sso.ldap.connectionHelper')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 7 }}>
        <SsoTextField
          label={t('settings.sso.ldap.host')}
          helper={t('settings.sso.ldap.hostHelper')}
          placeholder="ldap.example.com:636"
          required={props.active}
          {...bind('host')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 5 }}>
        <SwitchField
          label={t('settings.sso.ldap.useSsl')}
          helper={t('settings.sso.ldap.useSslHelper')}
          checked={props.value.useSsl}
          onChange={(useSsl) => props.onChange({ useSsl })}
        />
      </Grid>

      <Grid size={12}>
        <FieldGroupHeading
          title={t('settings.sso.ldap.accountHeading')}
          description={t('settings.sso.ldap.accountHelper')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoTextField
          label={t('settings.sso.ldap.bindUser')}
          helper={t('settings.sso.ldap.bindUserHelper')}
          placeholder="cn=gatehouse,ou=services,dc=example,dc=com"
          {...bind('bindUser')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoSecretField
          label={t('settings.sso.ldap.bindPassword')}
          stored={props.passwordSet}
          helper={t('settings.sso.ldap.bindPasswordNone')}
          {...bind('bindPassword')}
        />
      </Grid>

      <Grid size={12}>
        <FieldGroupHeading
          title={t('settings.sso.ldap.searchHeading')}
          description={t('settings.sso.ldap.searchHelper')}
        />
      </Grid>
      <Grid size={12}>
        <SsoTextField
          label={t('settings.sso.ldap.baseDn')}
          helper={t('settings.sso.ldap.baseDnHelper')}
          placeholder="ou=people,dc=example,dc=com"
          required={props.active}
          {...bind('baseDn')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoTextField
          label={t('settings.sso.ldap.userFilter')}
          helper={t('settings.sso.ldap.userFilterHelper')}
          required
          {...bind('userFilter')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoTextField
          label={t('settings.sso.ldap.groupFilter')}
          helper={t('settings.sso.ldap.groupFilterHelper')}
          {...bind('groupFilter')}
        />
      </Grid>
      <Grid size={12}>
        <SsoConnectionTest test={props.test} onTest={props.onTest} description={t('settings.sso.ldap.testHelper')} />
      </Grid>
    </Grid>
  );
}
