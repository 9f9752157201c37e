// Before ssh2 loads anywhere: its packets' padding from a pool (ssh2-padding.ts).
import './ssh2-padding.js';
import ssh2 from 'ssh2';
import type { SecretBox } from '../lib/secret-box.js';
import type { TunnelsRepository, TunnelWithMembers } from '../modules/tunnels/tunnels.repository.js';
import type { AgentHub } from '../realtime/agent-hub.js';
import { clientAlgorithms } from './ssh-algorithms.js';

/** Why the onward connection to the host failed, in words for the ssh user. */
export class UpstreamError extends Error {}

/**
 * Opens the onward SSH connection: a stream through the host's agent to its sshd, logged in with
 * the credential Gatehouse holds for the definition. The host key is pinned on first use and must
 * match afterwards.
 */
export async function connectUpstream(
  definition: TunnelWithMembers,
  deps: { hub: AgentHub; tunnels: TunnelsRepository; box: SecretBox },
): Promise<ssh2.Client> {
  let stream;
  try {
    stream = await deps.hub.openStream(definition.agentId, definition.port);
  } catch (error) {
    throw new UpstreamError(`Cannot reach ${definition.hostname}:${definition.port}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const secret = definition.credentialSealed ? deps.box.open(definition.credentialSealed) : '';
  const client = new ssh2.Client();
  let hostKeyProblem: string | undefined;
  return new Promise((resolve, reject) => {
    client.once('ready', () => resolve(client));
    client.once('error', (error) => {
      stream.destroy();
      reject(new UpstreamError(hostKeyProblem ?? `The host refused the connection: ${error.message}`));
    });
    client.connect({
      sock: stream,
      username: definition.sshLogin ?? 'root',
      ...(definition.sshAuth === 'password' ? { password: secret } : { privateKey: secret }),
      algorithms: clientAlgorithms(),
      readyTimeout: 20_000,
      keepaliveInterval: 15_000,
      hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
        const presented = key.toString('base64');
        if (!definition.hostKey) {
          deps.tunnels.pinHostKey(definition.id, presented).then(
            () => verify(true),
            () => verify(false),
          );
          return;
        }
        if (definition.hostKey !== presented) {
          hostKeyProblem = `The host key of ${definition.hostname} changed since it was first seen. An administrator must check the host and reset the pinned key.`;
        }
        verify(definition.hostKey === presented);
      },
    });
  });
}
