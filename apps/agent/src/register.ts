import type { Identity } from './state.js';

/** Registration failed for a reason retrying will not fix. */
export class RegistrationRefused extends Error {}

/** Enrols this host with a registration key and answers the agent's own identity. */
export async function register(
  server: string,
  input: { key: string; hostname: string; os: number; version: string },
): Promise<Identity> {
  let response: Response;
  try {
    response = await fetch(`${server}/api/agent/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(20_000),
    });
  } catch (error) {
    throw new Error(`Cannot reach ${server}: ${(error as Error).message}`, { cause: error });
  }
  const body = (await response.json().catch(() => ({}))) as { id?: string; credential?: string; message?: string };
  if (response.status === 401 || response.status === 400 || response.status === 403) {
    throw new RegistrationRefused(body.message ?? `The server refused the registration (HTTP ${response.status}).`);
  }
  if (!response.ok || !body.id || !body.credential) {
    throw new Error(`Registration failed with HTTP ${response.status}: ${body.message ?? 'no message'}`);
  }
  return { id: body.id, credential: body.credential, server };
}
