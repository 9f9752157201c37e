import fs from 'node:fs';
import path from 'node:path';
import { type AgentProcess, eventually, startAgent } from './agent-process.js';
import { type TestServer, startTestServer } from './harness.js';
import { type XrdpHost, startXrdpHost } from './xrdp-host.js';

/**
 * The gateway side of the xrdp host tests, as an administrator sets it up: the real server, the
 * built agent running as root on the xrdp host without --capture-source (so it follows each
 * connection to its own xrdp session), recording on (fps 5, scale 0.5), and one rdp definition to
 * xrdp. Shared by xrdp-host.test.ts and desktop-clipboard-xrdp.security.test.ts.
 */
export interface XrdpGateway {
  server: TestServer;
  admin: string;
  host: XrdpHost;
  agent: AgentProcess;
  agentId: string;
  /** The rdp definition to the host's xrdp, as created (its defaults unchanged). */
  definition: { id: string; unfilmed_rdp: string };
  /** Creates a Gatehouse user and adds them to the definition's users; answers their id. */
  addUser(email: string, password: string): Promise<string>;
  /** The agent's output and xrdp's logs after an error's message, for failure messages. */
  diagnose(error: Error): Promise<never>;
  stop(): Promise<void>;
}

export async function startXrdpGateway(
  kind: 'pglite' | 'postgres',
  colours: string[],
  options: { hostname?: string } = {},
): Promise<XrdpGateway> {
  const hostname = options.hostname ?? 'xrdp-host-01';
  const host = await startXrdpHost(colours);
  let server: TestServer | undefined;
  let agent: AgentProcess | undefined;
  const stop = async () => {
    agent?.child.kill('SIGKILL');
    await server?.stop();
    await host.stop();
  };
  try {
    server = await startTestServer(kind);
    const admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'x', uses: 1 } })
    ).body.key;
    // As an administrator installs it on an xrdp host: root, no --capture-source, no display.
    const started = startAgent({ server: server.url, key, hostname, env: { DISPLAY: '', XAUTHORITY: '' } });
    agent = started;
    const running = server;
    const agents = await eventually(
      async () =>
        (
          await running.call<{ agents: { id: string; hostname: string; connected: boolean }[] }>('GET', '/api/agent', {
            token: admin,
          })
        ).body.agents,
      (a) => a.some((x) => x.connected && x.hostname === hostname),
      30_000,
    );
    const agentId = agents.find((a) => a.hostname === hostname)!.id;
    await server.call('POST', `/api/agent/${agentId}/config`, {
      token: admin,
      body: { whitelist: [host.port], recording_enabled: true, recording_fps: 5, recording_scale: 0.5 },
    });
    await eventually(
      async () => fs.readFileSync(path.join(started.stateDir, 'config.json'), 'utf8'),
      (text) => text.includes(String(host.port)),
    );
    const definition = (
      await server.call<{ definition: { id: string; unfilmed_rdp: string } }>('POST', '/api/tunneldefinition/rdp', {
        token: admin,
        body: { name: 'xrdp desk', host_id: agentId, port: host.port },
      })
    ).body.definition;
    if (!definition) throw new Error('the rdp definition was not created');
    const allowed: string[] = [];
    return {
      server,
      admin,
      host,
      agent: started,
      agentId,
      definition,
      async addUser(email, password) {
        await running.createUser(email, password);
        const users = await running.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', {
          token: admin,
        });
        const id = users.body.users.find((u) => u.email === email)!.id;
        allowed.push(id);
        await running.call('PUT', `/api/tunneldefinition/${definition.id}/users`, {
          token: admin,
          body: { users: allowed },
        });
        return id;
      },
      diagnose: (error) =>
        Promise.reject(new Error(`${error.message}\nagent: ${started.output().slice(-3000)}\n${host.logs()}`)),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
