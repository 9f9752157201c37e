import { accountFeature } from '../features/account/feature';
import { auditFeature } from '../features/audit/feature';
import { authFeature } from '../features/auth/feature';
import { dashboardFeature } from '../features/dashboard/feature';
import { desktopFeature } from '../features/desktop/feature';
import { errorPagesFeature } from '../features/error-pages/feature';
import { groupsFeature } from '../features/groups/feature';
import { hostsFeature } from '../features/hosts/feature';
import { recordingSearchFeature } from '../features/recording-search/feature';
import { registrationKeysFeature } from '../features/registration-keys/feature';
import { rolesFeature } from '../features/roles/feature';
import { sessionsFeature } from '../features/sessions/feature';
import { settingsFeature } from '../features/settings/feature';
import { ssoFeature } from '../features/sso/feature';
import { systemFeature } from '../features/system/feature';
import { tunnelsFeature } from '../features/tunnels/feature';
import { usersFeature } from '../features/users/feature';
import type { Feature } from '../lib/feature';

/** Every feature, with those that have navigation entries in the order of spec §2.3 after My access. */
export const FEATURES: readonly Feature[] = [
  // My access first: the one entry every signed-in user has (issue 20).
  accountFeature,
  systemFeature,
  sessionsFeature,
  recordingSearchFeature,
  dashboardFeature,
  groupsFeature,
  hostsFeature,
  rolesFeature,
  tunnelsFeature,
  desktopFeature,
  usersFeature,
  registrationKeysFeature,
  auditFeature,
  settingsFeature,
  authFeature,
  ssoFeature,
  errorPagesFeature,
];
