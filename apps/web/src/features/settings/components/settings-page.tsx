import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { Permission } from '@gatehouse/contracts';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { SECURITY_SETTINGS_PERMISSIONS, hasPermission, isAdmin } from '../../../lib/permissions';
import { useSession } from '../../../lib/use-session';
import { CertificateSection } from './certificate-section';
import { GeneralSettingsSection } from './general-settings-section';
import { LicenseSection } from './license-section';
import { OutboxSection } from './outbox-section';
import { SecuritySettingsSection } from './security-settings-section';
import { SigningKeySection } from './signing-key-section';
import { SsoSection } from './sso-section';
import { VersionsSection } from './versions-section';

/** The sections of the screen. */
type SectionId = 'license' | 'certificate' | 'general' | 'outbox' | 'security' | 'signatures' | 'sso' | 'versions';

interface Section {
  id: SectionId;
  /** Shown to holders of one of these; undefined: to everyone who may open the screen. */
  permissions?: readonly Permission[];
  /** Shown to holders of the admin role only (calls the server keeps for them, such as the outbox). */
  adminOnly?: boolean;
  render: (can: (permission: Permission) => boolean) => ReactNode;
}

/** The sections in tab order. */
const SECTIONS: readonly Section[] = [
  { id: 'license', render: (can) => <LicenseSection canManage={can('manage-license')} /> },
  { id: 'certificate', render: (can) => <CertificateSection canManage={can('manage-license')} /> },
  { id: 'general', permissions: ['manage-settings'], render: () => <GeneralSettingsSection /> },
  // Beside the SMTP settings: the mail kept while no SMTP server is set.
  { id: 'outbox', adminOnly: true, render: () => <OutboxSection /> },
  { id: 'security', permissions: SECURITY_SETTINGS_PERMISSIONS, render: () => <SecuritySettingsSection /> },
  // The server answers holders of either: auditors check recordings with the fingerprint.
  { id: 'signatures', permissions: ['manage-settings', 'list-recording'], render: () => <SigningKeySection /> },
  { id: 'sso', permissions: ['manage-sso-config'], render: () => <SsoSection /> },
  { id: 'versions', render: (can) => <VersionsSection canManage={can('manage-kubernetes')} /> },
];

/**
 * /settings (spec §2.2): licence, ingress certificate, general settings, the mail outbox (admin
 * role), security settings, recording signatures, single sign-on and versions, each section
 * shown by permission; the open section is in the URL (?section=).
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const tabsId = useId();
  const can = (permission: Permission) => hasPermission(user, [permission]);
  const visible = SECTIONS.filter(
    (section) => hasPermission(user, section.permissions) && (!section.adminOnly || isAdmin(user)),
  );
  const requested = params.get('section');
  const current = visible.find((section) => section.id === requested) ?? visible[0];
  if (!current) return null;
  return (
    <>
      <PageHeader title={t('pages.settings')} subtitle={t('settings.subtitle')} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
        <Tabs
          value={current.id}
          onChange={(_event, id: SectionId) => setParams({ section: id }, { replace: true })}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={t('settings.sections')}
        >
          {visible.map((section) => (
            <Tab
              key={section.id}
              value={section.id}
              label={t(`settings.tabs.${section.id}`)}
              id={`${tabsId}-${section.id}`}
              aria-controls={`${tabsId}-${section.id}-panel`}
            />
          ))}
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`${tabsId}-${current.id}-panel`} aria-labelledby={`${tabsId}-${current.id}`}>
        {current.render(can)}
      </Box>
    </>
  );
}
