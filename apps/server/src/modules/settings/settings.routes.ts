import type { Handlers } from '../../http/bind-routes.js';
import { HttpError } from '../../http/errors.js';
import { holdsAdminRole } from '../auth/principal.js';
import type { Services } from '../../services.js';

/** Handlers of the general settings calls. */
export function settingsHandlers(s: Services): Pick<Handlers, 'getSettings' | 'saveSettings' | 'publicSettings'> {
  return {
    getSettings: () => s.settings.get(),
    saveSettings: async ({ body, principal, request }) => {
      request.auditNote.detail = { fields: Object.keys(body) };
      // Where mail goes and where its links point decide who receives administrators' reset links.
      const redirecting = await s.settings.redirecting(body);
      if (redirecting.length > 0 && !holdsAdminRole(principal)) {
        request.auditNote.detail.refused = redirecting;
        throw new HttpError(
          403,
          `Only holders of the admin role may change ${redirecting.join(', ')}: these decide where password-reset ` +
            'mail and its links go. Nothing was saved; leave these fields as they are to save the others.',
        );
      }
      const { passwordDropped, ...saved } = await s.settings.save(body);
      return {
        ...saved,
        message: passwordDropped
          ? 'Configuration saved. The SMTP password was removed because the server or user changed: enter it again.'
          : 'Configuration saved.',
      };
    },
    publicSettings: async () => {
      const { signin_banner, allow_signup } = await s.settings.get();
      return { signin_banner, allow_signup };
    },
  };
}
