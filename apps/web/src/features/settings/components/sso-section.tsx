import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SectionCard } from './section-card';

/**
 * Single sign-on configuration (manage-sso-config): SAML, OIDC and LDAP, GET and POST /sso/config.
 * ISSUE 8 fills this section; until then it says so plainly and shows no form.
 */
export function SsoSection() {
  const { t } = useTranslation();
  return (
    <SectionCard icon={KeyOutlined} title={t('settings.sso.title')} subtitle={t('settings.sso.subtitle')}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('settings.sso.later')}
      </Typography>
    </SectionCard>
  );
}
