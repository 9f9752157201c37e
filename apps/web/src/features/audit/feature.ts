import PolicyOutlined from '@mui/icons-material/PolicyOutlined';
import type { Feature } from '../../lib/feature';
import { lazyPage } from '../../lib/lazy-page';

const AuditPage = lazyPage(() => import('./components/audit-page'), 'AuditPage');
const StreamingPage = lazyPage(() => import('./components/streaming-page'), 'StreamingPage');

/** Audit (issue 20): the audit trail with filters and export; streaming to a SIEM for administrators. */
export const auditFeature: Feature = {
  id: 'audit',
  routes: [
    { path: 'audit', Component: AuditPage, access: 'protected', permissions: ['list-audit-log'] },
    { path: 'audit/streaming', Component: StreamingPage, access: 'protected', permissions: ['list-audit-log'] },
  ],
  nav: {
    id: 'audit',
    messageId: 'nav.audit',
    path: '/audit',
    icon: PolicyOutlined,
    permissions: ['list-audit-log'],
  },
};
