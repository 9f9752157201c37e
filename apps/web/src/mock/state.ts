import { generateApiKeys, generateAgents, generateTunnels } from './data/infrastructure';
import { generateOutbox } from './data/mail';
import { generateGroups, generateRoles, generateUsers } from './data/people';
import { generateRecordings } from './data/sessions';
import {
  generateAuthConfig,
  generateCertificate,
  generateLicense,
  generatePods,
  generateSecurity,
  generateSettings,
  versionsOf,
} from './data/system';
import { Prng } from './prng';
import type { MockState } from './types';

/** The seed of the mock organisation: the same data on every load. */
export const MOCK_SEED = 20_250_930;

/**
 * Generates the mock organisation around `now`: 40 users, roles, nested groups, 25 hosts (five
 * disconnected), tunnel definitions of every type, registration keys, about 500 sessions over 30
 * days (some live), the settings, licence, certificate, versions and components, and a mail outbox.
 */
export function createMockState(now = Date.now(), seed = MOCK_SEED): MockState {
  const rng = new Prng(seed);
  const users = generateUsers(rng, now);
  const roles = generateRoles();
  const groups = generateGroups(rng, users, now);
  const agents = generateAgents(rng, groups, now);
  const tunnels = generateTunnels(rng, agents, users, now);
  const apiKeys = generateApiKeys(rng, users, now);
  const recordings = generateRecordings(rng, now, { tunnels, agents, users, groups });
  const settings = generateSettings();
  // Its own sequence, so the outbox leaves the rest of the data as it was.
  const outbox = generateOutbox(new Prng(seed + 1), users, now, {
    from: settings.smtp.from,
    publicUrl: settings.public_url,
  });
  return {
    now,
    users,
    roles,
    groups,
    agents,
    tunnels,
    apiKeys,
    recordings,
    sshKeys: new Map(),
    settings,
    security: generateSecurity(),
    license: generateLicense(now, agents.length),
    certificate: generateCertificate(rng, now),
    versions: versionsOf(agents, '2.0.0'),
    authConfig: generateAuthConfig(),
    pods: generatePods(now, {
      liveSessions: recordings.filter((r) => r.ended_on === null).length,
      connectedAgents: agents.filter((a) => a.connected).length,
    }),
    outbox,
  };
}
