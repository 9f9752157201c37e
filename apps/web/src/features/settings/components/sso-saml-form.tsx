import Divider from '@mui/material/Divider';
import Grid from '@mui/material/Grid';
import { useTranslation } from 'react-i18next';
import { SsoCopyField } from './sso-copy-field';
import type { BoundText, ProviderFormProps } from './sso-fields';
import { FieldGroupHeading, SsoSelectField, SsoTextField, useTextBinder } from './sso-fields';
import type { SamlBinding, SamlForm } from './sso-form-model';
import { NAMEID_FORMATS, SAML_BINDINGS } from './sso-form-model';
import { SsoSamlOptions } from './sso-saml-options';
import { SsoSecretField } from './sso-secret-field';
import { PemField } from './pem-field';

/** Longest certificate or key text the server takes. */
const PEM_MAX = 20_000;

/** A URL and its binding, side by side (stacked on a phone). */
function UrlWithBinding(props: {
  url: BoundText;
  urlLabel: string;
  urlHelper: string;
  required?: boolean;
  binding: SamlBinding;
  bindingLabel: string;
  onBinding: (binding: SamlBinding) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Grid size={{ xs: 12, md: 8 }}>
        <SsoTextField
          label={props.urlLabel}
          helper={props.urlHelper}
          inputMode="url"
          required={props.required}
          {...props.url}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <SsoSelectField
          label={props.bindingLabel}
          value={props.binding}
          onChange={props.onBinding}
          options={SAML_BINDINGS.map((value) => ({
            value,
            label: value.endsWith('POST') ? t('settings.sso.saml.bindingPost') : t('settings.sso.saml.bindingRedirect'),
          }))}
        />
      </Grid>
    </>
  );
}

/**
 * SAML 2.0 (auth type 2): the addresses to register, the identity provider, this service provider,
 * then the security flags, contacts and organization (sso-saml-options).
 */
export function SsoSamlForm(
  props: ProviderFormProps<SamlForm> & { privateKeySet: boolean; acsUrl: string; metadataUrl: string },
) {
  const { t } = useTranslation();
  const bind = useTextBinder(props);
  const { value, onChange } = props;
  const nameIdFormats = NAMEID_FORMATS.some((format) => format === value.spNameIdFormat)
    ? NAMEID_FORMATS
    : [...NAMEID_FORMATS, value.spNameIdFormat];
  return (
    <Grid container spacing={2.5}>
      <Grid size={12}>
        <FieldGroupHeading
          title={t('settings.sso.registerHeading')}
          description={t('settings.sso.saml.registerHelper')}
        />
      </Grid>
      <Grid size={12}>
        <SsoCopyField label={t('settings.sso.saml.acsUrlToRegister')} value={props.acsUrl} />
      </Grid>
      <Grid size={12}>
        <SsoCopyField label={t('settings.sso.saml.metadataUrl')} value={props.metadataUrl} openable />
      </Grid>

      <Grid size={12}>
        <Divider sx={{ my: 1 }} />
        <FieldGroupHeading title={t('settings.sso.saml.idpHeading')} description={t('settings.sso.saml.idpHelper')} />
      </Grid>
      <Grid size={12}>
        <SsoTextField
          label={t('settings.sso.saml.idpEntityId')}
          helper={t('settings.sso.saml.idpEntityIdHelper')}
          required={props.active}
          {...bind('idpEntityId')}
        />
      </Grid>
      <UrlWithBinding
        url={bind('idpSsoUrl')}
        urlLabel={t('settings.sso.saml.idpSsoUrl')}
        urlHelper={t('settings.sso.saml.idpSsoUrlHelper')}
        required={props.active}
        binding={value.idpSsoBinding}
        bindingLabel={t('settings.sso.saml.idpSsoBinding')}
        onBinding={(idpSsoBinding) => onChange({ idpSsoBinding })}
      />
      <UrlWithBinding
        url={bind('idpSloUrl')}
        urlLabel={t('settings.sso.saml.idpSloUrl')}
        urlHelper={t('settings.sso.saml.optionalHelper')}
        binding={value.idpSloBinding}
        bindingLabel={t('settings.sso.saml.idpSloBinding')}
        onBinding={(idpSloBinding) => onChange({ idpSloBinding })}
      />
      <Grid size={12}>
        <PemField
          label={t('settings.sso.saml.idpCert')}
          helperText={t('settings.sso.saml.idpCertHelper')}
          chooseLabel={t('settings.sso.saml.chooseIdpCert')}
          maxLength={PEM_MAX}
          {...bind('idpCert')}
        />
      </Grid>

      <Grid size={12}>
        <Divider sx={{ my: 1 }} />
        <FieldGroupHeading title={t('settings.sso.saml.spHeading')} description={t('settings.sso.saml.spHelper')} />
      </Grid>
      <Grid size={12}>
        <SsoTextField
          label={t('settings.sso.saml.spEntityId')}
          helper={t('settings.sso.saml.spEntityIdHelper')}
          {...bind('spEntityId')}
        />
      </Grid>
      <UrlWithBinding
        url={bind('spAcsUrl')}
        urlLabel={t('settings.sso.saml.spAcsUrl')}
        urlHelper={t('settings.sso.saml.spAcsUrlHelper')}
        binding={value.spAcsBinding}
        bindingLabel={t('settings.sso.saml.spAcsBinding')}
        onBinding={(spAcsBinding) => onChange({ spAcsBinding })}
      />
      <UrlWithBinding
        url={bind('spSloUrl')}
        urlLabel={t('settings.sso.saml.spSloUrl')}
        urlHelper={t('settings.sso.saml.optionalHelper')}
        binding={value.spSloBinding}
        bindingLabel={t('settings.sso.saml.spSloBinding')}
        onBinding={(spSloBinding) => onChange({ spSloBinding })}
      />
      <Grid size={12}>
        <SsoSelectField
          label={t('settings.sso.saml.nameIdFormat')}
          helper={t('settings.sso.saml.nameIdFormatHelper')}
          value={value.spNameIdFormat}
          onChange={(spNameIdFormat) => onChange({ spNameIdFormat })}
          options={nameIdFormats.map((format) => ({ value: format, label: format }))}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <PemField
          label={t('settings.sso.saml.spCert')}
          helperText={t('settings.sso.saml.spCertHelper')}
          chooseLabel={t('settings.sso.saml.chooseSpCert')}
          maxLength={PEM_MAX}
          {...bind('spCert')}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SsoSecretField
          label={t('settings.sso.saml.spPrivateKey')}
          stored={props.privateKeySet}
          helper={t('settings.sso.saml.spPrivateKeyNone')}
          pem={{ chooseLabel: t('settings.sso.saml.chooseSpKey'), maxLength: PEM_MAX }}
          {...bind('spPrivateKey')}
        />
      </Grid>

      <SsoSamlOptions {...props} />
    </Grid>
  );
}
