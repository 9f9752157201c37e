import fs from 'node:fs';
import path from 'node:path';
import { type AgentProcess, eventually, startAgent } from './agent-process.js';
import type { TestServer } from './harness.js';
import type { Sshd } from './sshd.js';

/**
 * A host reachable through the gateway, as an administrator sets one up: a real agent enrolled with
 * a fresh key, sshd's port on its whitelist, an SSH tunnel definition to it, and a user with an SSH
 * key admitted to that definition.
 */
export async function enrolGatewayHost(
  server: TestServer,
  admin: string,
  sshd: Sshd,
  options: {
    hostname: string;
    definition: string;
    user: { email: string; password: string; publicKey: string };
    /** The agent file to run (default the built dist/cli.js). */
    agentFile?: string;
  },
): Promise<{ agent: AgentProcess; agentId: string; definitionId: string }> {
  const key = (
    await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: options.hostname } })
  ).body.key;
  const agent = startAgent({ server: server.url, key, hostname: options.hostname, cli: options.agentFile });
  const agentId = (await eventually(
    async () =>
      (await server.call<{ agents: { id: string; connected: boolean }[] }>('GET', '/api/agent', { token: admin })).body
        .agents[0],
    (a) => a?.connected === true,
  ))!.id;
  await server.call('POST', `/api/agent/${agentId}/config`, { token: admin, body: { whitelist: [sshd.port] } });
  await eventually(
    async () => fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8'),
    (text) => text.includes(String(sshd.port)),
  );
  const def = await server.call<{ definition: { id: string; public_key: string } }>(
    'POST',
    '/api/tunneldefinition/ssh',
    { token: admin, body: { name: options.definition, host_id: agentId, port: sshd.port, ssh_login: sshd.login } },
  );
  sshd.authorizeKey(def.body.definition.public_key);
  const { email, password, publicKey } = options.user;
  await server.createUser(email, password);
  const token = await server.login(email, password);
  await server.call('POST', '/api/user/me/ssh-keys', { token, body: { name: 'laptop', public_key: publicKey } });
  const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
  await server.call('PUT', `/api/tunneldefinition/${def.body.definition.id}/users`, {
    token: admin,
    body: { users: [users.body.users.find((u) => u.email === email)!.id] },
  });
  return { agent, agentId, definitionId: def.body.definition.id };
}
