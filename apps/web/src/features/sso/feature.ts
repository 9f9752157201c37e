import type { Feature } from '../../lib/feature';
import { SsoPage } from './components/sso-page';

/**
 * Single sign-on screens (spec §2.1, §2.2, §2.8): /sso where the identity provider's flow ends,
 * /ssoauth where the re-authorization popup starts one. /sso/token and /saml/acs redirect to /sso
 * in the router.
 */
export const ssoFeature: Feature = {
  id: 'sso',
  routes: [
    { path: 'sso', Component: SsoPage, access: 'public' },
    { path: 'ssoauth', Component: SsoPage, access: 'public' },
  ],
};
