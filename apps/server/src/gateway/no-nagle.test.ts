import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentProcess } from '../test/agent-process.js';
import { enrolGatewayHost } from '../test/gateway-host.js';
import { type TestServer, startTestServer } from '../test/harness.js';
import { type Sshd, ssh, startSshd, userKey } from '../test/sshd.js';
import { type TcpSocketState, tcpSockets } from '../test/tcp-nodelay.js';

const TUNNEL_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../agent/dist/tunnel-cli.js');

/**
 * Issue 19: with Nagle's algorithm on, a small write waits for the ACK of the one before it, and a
 * peer delaying its ACKs holds it ~40 ms: every keystroke through the gateway took 43 ms while
 * `ssh -J` took under 1. Latency is measured by the bench (scripts/bench-gateway.mjs --only echo);
 * this test checks the cause without a clock: while a real OpenSSH session runs through the gateway
 * and another through `gatehouse tunnel`, TCP_NODELAY is read from the kernel (test/tcp-nodelay.ts)
 * on every established TCP socket of the server, the agent and the tunnel client.
 */
describe('small writes are not held back by Nagle on any hop', () => {
  let server: TestServer;
  let sshd: Sshd;
  let agent: AgentProcess;
  let tunnel: ChildProcess;
  const sessions: ChildProcess[] = [];
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-nagle-'));
  const nina = userKey(keys, 'nina');
  const user = { email: 'nina@example.test', password: 'nina-password-1', publicKey: nina.publicKey };

  /** An interactive session (remote PTY running cat), open once a key typed into it comes back. */
  async function openSession(args: string[]): Promise<void> {
    const { child } = ssh(['-tt', '-i', nina.file, ...args, 'exec cat'], { timeoutMs: 120_000 });
    sessions.push(child);
    let seen = '';
    child.stdout?.on('data', (c: Buffer) => (seen += c.toString()));
    for (let i = 0; i < 200 && !seen.includes('q'); i += 1) {
      child.stdin?.write('q');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen, `no echo through ssh ${args.join(' ')}`).toContain('q');
  }

  beforeAll(async () => {
    server = await startTestServer('pglite');
    const admin = await server.login();
    sshd = await startSshd();
    const host = await enrolGatewayHost(server, admin, sshd, { hostname: 'web-01', definition: 'web', user });
    agent = host.agent;
    // A generic tunnel to the same sshd, for `gatehouse tunnel` (where nina signs in to sshd herself).
    sshd.authorizeKey(nina.publicKey);
    const generic = await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/generic', {
      token: admin,
      body: { name: 'web-ssh', host_id: host.agentId, port: sshd.port },
    });
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    await server.call('PUT', `/api/tunneldefinition/${generic.body.definition.id}/users`, {
      token: admin,
      body: { users: [users.body.users.find((u) => u.email === user.email)!.id] },
    });
    const token = await server.login(user.email, user.password);
    tunnel = spawn(
      process.execPath,
      [TUNNEL_CLI, 'tunnel', 'web-ssh', '--server', server.url, '--token', token, '--local-port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const tunnelPort = await new Promise<number>((resolve, reject) => {
      let out = '';
      const read = (c: Buffer) => {
        out += c.toString();
        const port = /listening on [\d.]+:(\d+)/.exec(out)?.[1];
        if (port) resolve(Number(port));
      };
      tunnel.stdout?.on('data', read);
      tunnel.stderr?.on('data', read);
      tunnel.on('exit', () => reject(new Error(`gatehouse tunnel ended: ${out}`)));
    });
    await openSession(['-p', String(server.sshPort), `${user.email}@web-01@127.0.0.1`]);
    await openSession(['-p', String(tunnelPort), `${sshd.login}@127.0.0.1`]);
  }, 120_000);

  afterAll(async () => {
    for (const s of sessions) s.kill('SIGKILL');
    tunnel?.kill('SIGTERM');
    agent?.child.kill('SIGKILL');
    await server?.close();
    sshd?.stop();
    fs.rmSync(keys, { recursive: true, force: true });
  });

  const withNagle = (sockets: TcpSocketState[]) => sockets.filter((s) => !s.noDelay);

  it('on the gateway: the sockets it accepts from ssh clients and from agents and tunnel clients', () => {
    const httpPort = Number(new URL(server.url).port);
    // The sockets this server accepted on its SSH and HTTP ports (this test's process also holds
    // client sockets, such as fetch's, which are not the server's).
    const accepted = tcpSockets(process.pid).filter((s) => s.localPort === server.sshPort || s.localPort === httpPort);
    const ssh = accepted.filter((s) => s.localPort === server.sshPort);
    // The agent's socket and the tunnel client's socket (both WebSockets), at least.
    const http = accepted.filter((s) => s.localPort === httpPort);
    expect(ssh.length, 'the gateway holds the ssh session').toBeGreaterThanOrEqual(1);
    expect(http.length, 'the agent and the tunnel client are connected').toBeGreaterThanOrEqual(2);
    expect(withNagle(accepted)).toEqual([]);
  });

  it('on the agent: its WebSocket to the server and its connections to the host’s sshd', () => {
    const sockets = tcpSockets(agent.child.pid!);
    const httpPort = Number(new URL(server.url).port);
    // The WebSocket, and fetch's kept-alive socket of the registration when it is still open.
    expect(sockets.filter((s) => s.remotePort === httpPort).length, 'the WebSocket to the server').toBeGreaterThan(0);
    // One stream per session: the gateway's upstream SSH connection and the tunnel's.
    expect(sockets.filter((s) => s.remotePort === sshd.port).length, 'one connection per session').toBe(2);
    expect(withNagle(sockets)).toEqual([]);
  });

  it('on `gatehouse tunnel`: the connection it accepted from ssh and its WebSocket to the server', () => {
    const sockets = tcpSockets(tunnel.pid!);
    const httpPort = Number(new URL(server.url).port);
    // The WebSocket, and fetch's kept-alive socket of the definition lookup when it is still open.
    expect(sockets.filter((s) => s.remotePort === httpPort).length, 'the WebSocket to the server').toBeGreaterThan(0);
    expect(sockets.filter((s) => s.remotePort !== httpPort).length, 'the connection from ssh').toBe(1);
    expect(withNagle(sockets)).toEqual([]);
  });
});
