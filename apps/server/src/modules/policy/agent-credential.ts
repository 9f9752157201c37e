import type { AgentsRepository } from '../agents/agents.repository.js';
import { hashToken } from '../auth/tokens.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The longest credential worth hashing; agents' credentials are far shorter. */
export const MAX_CREDENTIAL_LENGTH = 512;

/** An enrolled agent as its credential proves it. */
export type CredentialAgent = NonNullable<Awaited<ReturnType<AgentsRepository['findByCredential']>>>;

/**
 * May this agent speak for its host: the agent enrolled with this id whose stored credential hash
 * matches, or undefined for a malformed id, an empty or oversized credential, or no match.
 */
export async function agentFromCredential(
  agents: AgentsRepository,
  id: unknown,
  credential: unknown,
): Promise<CredentialAgent | undefined> {
  if (typeof id !== 'string' || typeof credential !== 'string') return undefined;
  if (!UUID.test(id) || credential.length === 0 || credential.length > MAX_CREDENTIAL_LENGTH) return undefined;
  return agents.findByCredential(id, hashToken(credential));
}
