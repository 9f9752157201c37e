import {
  AGENT_BUNDLE_FILE,
  AGENT_SHA256_HEADER,
  AGENT_VERSION_HEADER,
  agentBundleDownload,
} from '@gatehouse/contracts';
import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';
import { AgentBundleStore } from './agent-bundle.js';
import { renderInstallScript, serverUrlFor } from './install-script.js';

/**
 * The agent as a product (issue 17): the self-contained agent file, what the server says about it,
 * and the install script. Public: none of them holds a secret, and a host being installed has no
 * credential yet. The script names this server as the public URL setting (or the configured
 * GATEHOUSE_PUBLIC_URL) says, else as the request reached it; never cached, since that origin is
 * the client's.
 */
export function agentInstallHandlers(
  s: Services,
  config: { publicUrl?: string | undefined },
  store: AgentBundleStore = new AgentBundleStore(),
): Pick<Handlers, 'agentBundleManifest' | 'agentBundleDownload' | 'agentInstallScript'> {
  return {
    agentBundleManifest: () => {
      const bundle = store.load();
      return Promise.resolve({
        file: AGENT_BUNDLE_FILE,
        version: bundle.version,
        sha256: bundle.sha256,
        bytes: bundle.bytes.length,
        url: agentBundleDownload.path,
        install_url: '/api/agent/install.sh',
      });
    },
    agentBundleDownload: async ({ reply }) => {
      const bundle = store.load();
      return reply
        .type('text/javascript; charset=utf-8')
        .header('content-disposition', `attachment; filename="${AGENT_BUNDLE_FILE}"`)
        .header(AGENT_SHA256_HEADER, bundle.sha256)
        .header(AGENT_VERSION_HEADER, bundle.version)
        .header('cache-control', 'no-cache')
        .send(bundle.bytes) as never;
    },
    agentInstallScript: async ({ request, reply }) => {
      const bundle = store.load();
      const configured = (await s.settings.get()).public_url || config.publicUrl;
      const script = renderInstallScript(bundle, serverUrlFor(configured, request));
      return reply
        .type('text/x-shellscript; charset=utf-8')
        .header('cache-control', 'no-store')
        .header(AGENT_VERSION_HEADER, bundle.version)
        .send(script) as never;
    },
  };
}
