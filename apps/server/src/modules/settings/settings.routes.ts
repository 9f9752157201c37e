import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

/** Handlers of the general settings calls. */
export function settingsHandlers(s: Services): Pick<Handlers, 'getSettings' | 'saveSettings' | 'publicSettings'> {
  return {
    getSettings: () => s.settings.get(),
    saveSettings: async ({ body, request }) => {
      request.auditNote.detail = { fields: Object.keys(body) };
      return { ...(await s.settings.save(body)), message: 'Configuration saved.' };
    },
    publicSettings: async () => {
      const { signin_banner, allow_signup } = await s.settings.get();
      return { signin_banner, allow_signup };
    },
  };
}
