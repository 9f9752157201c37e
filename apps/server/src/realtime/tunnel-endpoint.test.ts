import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';

const TUNNEL_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../agent/dist/tunnel-cli.js');

/** Starts `gatehouse tunnel …`; answers the local port it listens on, or its error output. */
function startTunnel(args: string[]): Promise<{ child: ChildProcess; port?: number; output: () => string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TUNNEL_CLI, 'tunnel', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (c: Buffer) => {
      output += c.toString();
      const port = /listening on [\d.]+:(\d+)/.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port), output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => resolve({ child, output: () => output }));
  });
}

/** Sends bytes through a local port and answers what came back. */
function roundTrip(port: number, payload: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(payload));
    let back = '';
    socket.on('data', (c: Buffer) => (back += c.toString()));
    socket.on('close', () => resolve(back));
    socket.on('error', () => resolve(back));
  });
}

// `gatehouse tunnel` (a real process) → the server → a real agent → a TCP service, and back.
describe.each(DATABASES)('rdp, generic and agent tunnels on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const agents: AgentProcess[] = [];
  const children: ChildProcess[] = [];
  const service = net.createServer((s) => s.pipe(s));
  let definitionId = '';
  let agentDefinitionId = '';

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    const servicePort = (service.address() as net.AddressInfo).port;
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 't', uses: 2 } })
    ).body.key;
    agents.push(
      startAgent({ server: server.url, key, hostname: 'db-01' }),
      startAgent({ server: server.url, key, hostname: 'ci-01' }),
    );
    const list = await eventually(
      async () =>
        (
          await server.call<{ agents: { id: string; hostname: string; connected: boolean }[] }>('GET', '/api/agent', {
            token: admin,
          })
        ).body.agents,
      (a) => a.filter((x) => x.connected).length === 2,
    );
    const db = list.find((a) => a.hostname === 'db-01')!.id;
    const ci = list.find((a) => a.hostname === 'ci-01')!.id;
    await server.call('POST', `/api/agent/${db}/config`, { token: admin, body: { whitelist: [servicePort] } });
    definitionId = (
      await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/generic', {
        token: admin,
        body: { name: 'echo', host_id: db, port: servicePort },
      })
    ).body.definition.id;
    agentDefinitionId = (
      await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/agent', {
        token: admin,
        body: { name: 'ci to echo', host_id: db, port: servicePort },
      })
    ).body.definition.id;
    await server.call('PUT', `/api/tunneldefinition/${agentDefinitionId}/agents`, {
      token: admin,
      body: { agents: [ci] },
    });
    await server.createUser('zara@example.test', 'zara-password');
    await server.createUser('yann@example.test', 'yann-password');
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    await server.call('PUT', `/api/tunneldefinition/${definitionId}/users`, {
      token: admin,
      body: { users: [users.body.users.find((u) => u.email === 'zara@example.test')!.id] },
    });
  }, 180_000);
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    for (const a of agents) a.child.kill('SIGKILL');
    service.close();
    await server.stop();
  });

  it('carries bytes both ways for an admitted user, and records the session', async () => {
    const tunnel = await startTunnel([
      'echo',
      '--server',
      server.url,
      '--email',
      'zara@example.test',
      '--password',
      'zara-password',
      '--local-port',
      '0',
    ]);
    children.push(tunnel.child);
    expect(tunnel.port, tunnel.output()).toBeGreaterThan(0);
    const payload = Buffer.from('x'.repeat(200_000));
    expect(await roundTrip(tunnel.port!, payload)).toBe(payload.toString());
    const rec = await eventually(
      async () =>
        (
          await server.call<{
            recordings: { id: string; type: string; ended_on: string | null; user: { email: string } }[];
          }>('GET', '/api/recording', { token: admin })
        ).body.recordings,
      (l) => l.some((r) => r.ended_on !== null),
    );
    expect(rec[0]).toMatchObject({ type: 'generic', user: { email: 'zara@example.test' } });
    const row = await server.services.repositories.recordings.find(rec[0]!.id);
    expect(fs.readFileSync(row!.storagePath, 'utf8')).toMatch(
      /200000 bytes to the host, 200000 bytes back|bytes to db-01/,
    );
  });

  it('refuses a user the definition does not admit, with the reason', async () => {
    const tunnel = await startTunnel([
      definitionId,
      '--server',
      server.url,
      '--email',
      'yann@example.test',
      '--password',
      'yann-password',
      '--local-port',
      '0',
    ]);
    children.push(tunnel.child);
    expect(tunnel.output()).toMatch(/No rdp or generic tunnel named/);
  });

  it('lets a listed agent open an agent tunnel with its own identity, and no one else', async () => {
    const ci = agents[1]!;
    const tunnel = await startTunnel([
      agentDefinitionId,
      '--server',
      server.url,
      '--agent-state-dir',
      ci.stateDir,
      '--local-port',
      '0',
    ]);
    children.push(tunnel.child);
    expect(await roundTrip(tunnel.port!, Buffer.from('agent-to-agent'))).toBe('agent-to-agent');
    const other = await startTunnel([
      agentDefinitionId,
      '--server',
      server.url,
      '--agent-state-dir',
      agents[0]!.stateDir,
      '--local-port',
      '0',
    ]);
    children.push(other.child);
    expect(await roundTrip(other.port!, Buffer.from('nope'))).toBe('');
    await eventually(
      async () => other.output(),
      (o) => o.includes('Tunnel refused: db-01 is not listed on this agent tunnel.'),
    );
  });
});
