import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import type { ProviderFormProps } from './sso-fields';
import { FieldGroupHeading, SsoSelectField, SsoTextField, useTextBinder } from './sso-fields';
import type { SamlForm } from './sso-form-model';
import { SwitchField } from './switch-field';

/** The SAML switches, each with its help text's message id (settings.sso.saml.flags.<key>). */
const FLAGS = [
  'strict',
  'wantAssertionsSigned',
  'wantMessagesSigned',
  'authnRequestsSigned',
  'rejectDeprecatedAlgorithm',
  'debug',
] as const satisfies readonly (keyof SamlForm)[];

/** SAML security flags and signature algorithm, then the contacts and organization put in the metadata. */
export function SsoSamlOptions(props: ProviderFormProps<SamlForm>) {
  const { t } = useTranslation();
  const bind = useTextBinder(props);
  const { value, onChange } = props;
  return (
    <>
      <Grid size={12}>
        <Divider sx={{ my: 1 }} />
        <FieldGroupHeading
          title={t('settings.sso.saml.securityHeading')}
          description={t('settings.sso.saml.securityHelper')}
        />
      </Grid>
      {FLAGS.map((flag) => (
        <Grid key={flag} size={{ xs: 12, md: 6 }}>
          <SwitchField
            label={t(`settings.sso.saml.flags.${flag}`)}
            helper={t(`settings.sso.saml.flags.${flag}Helper`)}
            checked={value[flag]}
            onChange={(checked) => onChange({ [flag]: checked })}
          />
        </Grid>
      ))}
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoSelectField
          label={t('settings.sso.saml.signatureAlgorithm')}
          helper={t('settings.sso.saml.signatureAlgorithmHelper')}
          value={value.signatureAlgorithm}
          onChange={(signatureAlgorithm) => onChange({ signatureAlgorithm })}
          options={[
            { value: 'sha256', label: 'RSA-SHA256' },
            { value: 'sha512', label: 'RSA-SHA512' },
          ]}
        />
      </Grid>

      <Grid size={12}>
        <Divider sx={{ my: 1 }} />
        <FieldGroupHeading
          title={t('settings.sso.saml.contactsHeading')}
          description={t('settings.sso.saml.contactsHelper')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <SsoTextField label={t('settings.sso.saml.technicalName')} ltr={false} {...bind('technicalName')} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <SsoTextField
          label={t('settings.sso.saml.technicalEmail')}
          inputMode="email"
          type="email"
          {...bind('technicalEmail')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <SsoTextField label={t('settings.sso.saml.supportName')} ltr={false} {...bind('supportName')} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <SsoTextField
          label={t('settings.sso.saml.supportEmail')}
          inputMode="email"
          type="email"
          {...bind('supportEmail')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <SsoTextField label={t('settings.sso.saml.orgName')} ltr={false} {...bind('orgName')} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <SsoTextField label={t('settings.sso.saml.orgDisplayName')} ltr={false} {...bind('orgDisplayName')} />
      </Grid>
      <Grid size={12}>
        <SsoTextField
          label={t('settings.sso.saml.orgUrl')}
          placeholder="https://www.example.com"
          inputMode="url"
          {...bind('orgUrl')}
        />
      </Grid>
    </>
  );
}
