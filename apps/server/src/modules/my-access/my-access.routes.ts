import type { Config } from '../../config.js';
import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';
import { gatewayAddress, serverUrl } from './gateway-address.js';
import { MyAccessService } from './my-access.service.js';

/** What My access reads from the configuration: where the gateway listens and is reached. */
export type MyAccessConfig = Pick<Config, 'sshHost' | 'sshPort'> &
  Partial<Pick<Config, 'sshPublicAddress' | 'publicUrl'>>;

/** GET /api/me/access: the caller's own reach, with commands for the gateway as clients reach it. */
export function myAccessHandlers(s: Services, config: MyAccessConfig): Pick<Handlers, 'myAccess'> {
  const service = new MyAccessService(s.policy, s.repositories.agents, s.repositories.rolesAdmin);
  return {
    myAccess: async ({ principal, request }) => {
      const publicUrl = (await s.settings.get()).public_url || config.publicUrl;
      const gateway = gatewayAddress({
        configured: config.sshPublicAddress,
        listenHost: s.status.gateway?.host ?? config.sshHost,
        // The port the gateway really listens on (the setting may be 0), once it does.
        listenPort: s.status.gateway?.port ?? config.sshPort,
        publicUrl,
        requestHost: request.hostname,
      });
      return service.of(principal, { gateway, serverUrl: serverUrl(publicUrl, request) });
    },
  };
}
