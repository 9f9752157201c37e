import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SSO_SSH_KEY_HOURS } from '@gatehouse/contracts';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useSnackbar } from '../../../components/snackbar/snackbar-context';
import { useErrorText } from '../../../components/use-error-text';
import { ApiError } from '../../../lib/api-error';
import type { AuthConfig, useSaveSsoConfig } from '../api/sso-config';
import { useTestLdap, useTestOidc } from '../api/sso-config';
import type { Provider, SsoForm } from './sso-form-model';
import {
  PROVIDERS,
  isProviderChanged,
  isSsoFormChanged,
  providerOf,
  toLdapTestBody,
  toSsoBody,
  toSsoForm,
} from './sso-form-model';
import { providersWithErrors, validateSsoForm } from './sso-form-validation';
import { SsoLdapForm } from './sso-ldap-form';
import { SsoMethodChooser, methodName } from './sso-method-chooser';
import { SsoOidcForm } from './sso-oidc-form';
import { SsoProviderTabs } from './sso-provider-tabs';
import { SsoSamlForm } from './sso-saml-form';

/**
 * The single sign-on form: the sign-in method, then each provider's settings in its own tab.
 * Save sends only what changed; switching the method is confirmed first. Saving needs fresh
 * authentication: the API client opens the Authorize dialog when the server asks.
 */
export function SsoConfigForm({
  config,
  save,
  onSaved,
  readOnly = false,
}: {
  config: AuthConfig;
  /** Not an administrator: the form can be read and its connections tested, not saved. */
  readOnly?: boolean;
  /** Held by the section, so its error survives the form remounting. */
  save: ReturnType<typeof useSaveSsoConfig>;
  /** After a save: the section remounts the form on the answered configuration. */
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const errorText = useErrorText();
  const [initial] = useState(() => toSsoForm(config));
  const [form, setForm] = useState(initial);
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Bumped by Discard, so secret fields opened with Replace close again.
  const [generation, setGeneration] = useState(0);
  const [tab, setTab] = useState<Provider>(providerOf(initial.authType) ?? 'ldap');
  const ldapTest = useTestLdap();
  const oidcTest = useTestOidc();

  const errors = validateSsoForm(form, initial);
  const invalid = providersWithErrors(errors);
  const changed = isSsoFormChanged(form, initial);
  const switching = form.authType !== initial.authType;

  const update = (next: (current: SsoForm) => SsoForm) => {
    setForm(next);
    if (save.isError) save.reset();
  };
  const patch =
    <P extends Provider>(provider: P) =>
    (values: Partial<SsoForm[P]>) => {
      update((current) => ({ ...current, [provider]: { ...current[provider], ...values } }));
      // A verdict on other values than those on screen would mislead.
      if (provider === 'ldap') ldapTest.reset();
      if (provider === 'oidc') oidcTest.reset();
    };

  const send = () =>
    save.mutate(toSsoBody(form, initial), {
      onSuccess: () => {
        snackbar.success(t('settings.saved'));
        onSaved();
      },
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const [firstInvalid] = invalid;
    if (firstInvalid) {
      if (!invalid.includes(tab)) setTab(firstInvalid);
      return;
    }
    if (switching) setConfirming(true);
    else send();
  };
  const testLdap = () => {
    setTried(true);
    if (errors.ldap.host || errors.ldap.baseDn || errors.ldap.userFilter) return;
    ldapTest.mutate(toLdapTestBody(form.ldap));
  };
  const testOidc = () => {
    setTried(true);
    if (errors.oidc.wellKnownUrl) return;
    // Blank: the server tests the stored address, or says one is needed.
    oidcTest.mutate(form.oidc.wellKnownUrl.trim() || undefined);
  };

  const common = (provider: Provider) => ({ showAll: tried, active: providerOf(form.authType) === provider });
  const serverErrors = save.error instanceof ApiError ? (save.error.body?.errors ?? []) : [];

  return (
    <Box component="form" noValidate onSubmit={submit}>
      {save.isError ? (
        <Alert severity="error" variant="outlined" sx={{ mb: 2 }}>
          {errorText(save.error)}
          {serverErrors.length > 1 ? (
            <Box component="ul" sx={{ m: 0, mt: 1, ps: 2.5 }}>
              {serverErrors.slice(1).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </Box>
          ) : null}
        </Alert>
      ) : null}
      {readOnly ? (
        <Alert severity="warning" variant="outlined" sx={{ mb: 2 }}>
          {t('settings.sso.adminOnly')}
        </Alert>
      ) : null}
      <Alert severity="info" variant="outlined" icon={<AdminPanelSettingsOutlined />} sx={{ mb: 3 }}>
        {t('settings.sso.breakGlass')}
      </Alert>

      <SsoMethodChooser
        value={form.authType}
        active={initial.authType}
        onChange={(authType) => {
          update((current) => ({ ...current, authType }));
          const provider = providerOf(authType);
          if (provider) setTab(provider);
        }}
      />
      {switching ? (
        <Alert severity="warning" variant="outlined" sx={{ mt: 2 }}>
          {t('settings.sso.switchNotice', {
            from: t(methodName(initial.authType)),
            to: t(methodName(form.authType)),
          })}
        </Alert>
      ) : null}

      <Alert severity="info" variant="outlined" sx={{ mt: 2 }}>
        {t('settings.sso.gatewayNote', { hours: SSO_SSH_KEY_HOURS })}
      </Alert>

      <Divider sx={{ my: 3 }} />
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('settings.sso.adminGroups.heading')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, mb: 2 }}>
        {t('settings.sso.adminGroups.helper')}
      </Typography>
      <TextField
        label={t('settings.sso.adminGroups.label')}
        value={form.adminGroups}
        onChange={(event) => update((current) => ({ ...current, adminGroups: event.target.value }))}
        helperText={t('settings.sso.adminGroups.hint')}
        placeholder="gatehouse-admins"
        fullWidth
        multiline
        minRows={1}
      />

      <Divider sx={{ my: 3 }} />
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('settings.sso.providersHeading')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, mb: 1 }}>
        {t('settings.sso.providersHelper')}
      </Typography>
      <SsoProviderTabs
        tab={tab}
        onTab={setTab}
        marks={{
          active: providerOf(initial.authType),
          chosen: switching ? providerOf(form.authType) : null,
          edited: PROVIDERS.filter((provider) => isProviderChanged(form, initial, provider)),
          invalid: tried ? invalid : [],
        }}
      >
        <Box key={generation}>
          {tab === 'ldap' ? (
            <SsoLdapForm
              value={form.ldap}
              initial={initial.ldap}
              errors={errors.ldap}
              onChange={patch('ldap')}
              passwordSet={config.ldap_config.ldap_bind_password_set}
              test={ldapTest}
              onTest={testLdap}
              {...common('ldap')}
            />
          ) : tab === 'oidc' ? (
            <SsoOidcForm
              value={form.oidc}
              initial={initial.oidc}
              errors={errors.oidc}
              onChange={patch('oidc')}
              secretSet={config.oidc_config.client_secret_set}
              redirectUri={config.callback_urls.oidc_redirect_uri}
              test={oidcTest}
              onTest={testOidc}
              {...common('oidc')}
            />
          ) : (
            <SsoSamlForm
              value={form.saml}
              initial={initial.saml}
              errors={errors.saml}
              onChange={patch('saml')}
              privateKeySet={config.saml_config.sp.privateKey_set}
              acsUrl={config.callback_urls.saml_acs_url}
              metadataUrl={config.callback_urls.saml_metadata_url}
              {...common('saml')}
            />
          )}
        </Box>
      </SsoProviderTabs>

      {tried && invalid.length > 0 ? (
        <Alert severity="error" variant="outlined" sx={{ mt: 3 }}>
          {t('settings.sso.fixFields', {
            providers: invalid.map((provider) => t(`settings.sso.methods.${provider}.name`)).join(', '),
          })}
        </Alert>
      ) : null}
      <Alert severity="info" variant="outlined" sx={{ mt: 3 }}>
        {t('settings.sso.needsAuthorization')}
      </Alert>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, mt: 3, flexWrap: 'wrap' }}>
        <Button
          color="inherit"
          disabled={readOnly || !changed || save.isPending}
          onClick={() => {
            setForm(initial);
            setTried(false);
            setGeneration((count) => count + 1);
            save.reset();
          }}
        >
          {t('settings.discard')}
        </Button>
        <Button type="submit" variant="contained" disabled={readOnly || !changed} loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Box>

      <ConfirmDialog
        open={confirming}
        title={t('settings.sso.confirmTitle', { method: t(methodName(form.authType)) })}
        message={
          <>
            <Typography component="p" variant="body2" sx={{ mb: 1.5 }}>
              {form.authType === 1
                ? t('settings.sso.confirmToPassword', { from: t(methodName(initial.authType)) })
                : t('settings.sso.confirmToProvider', { method: t(methodName(form.authType)) })}
            </Typography>
            <Typography component="p" variant="body2">
              {t('settings.sso.confirmBreakGlass')}
            </Typography>
          </>
        }
        confirmLabel={t('settings.sso.confirmButton')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          // Closed first: the Authorize dialog may follow, and should not open over this one.
          setConfirming(false);
          send();
        }}
      />
    </Box>
  );
}
