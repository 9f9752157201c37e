import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type AgentProcess, eventually, startAgent } from './agent-process.js';
import { freePort, startServerProcess } from './server-process.js';
import { type Sshd, startSshd, userKey } from './sshd.js';

/** Debian's HAProxy (the balancer the cluster tests put in front of the instances). */
export const HAPROXY = '/usr/sbin/haproxy';
export const CLUSTER_ADMIN = { email: 'cluster-admin@example.test', password: 'cluster-password-1' } as const;

/** Why the cluster tests cannot run here, or undefined when they can. */
export function clusterSkipReason(): string | undefined {
  if (!process.env.TEST_DATABASE_URL)
    return 'TEST_DATABASE_URL is unset: several server processes need a shared PostgreSQL (PGlite is one process)';
  if (!process.env.REDIS_URL) return 'REDIS_URL is unset: the instances share Redis';
  if (!fs.existsSync(HAPROXY)) return `${HAPROXY} is missing (apt-get install haproxy)`;
  return undefined;
}

/** One built server process of the cluster. */
export interface ClusterInstance {
  name: string;
  child: ChildProcess;
  /** Its own HTTP URL (not the balancer's). */
  url: string;
  sshPort: number;
  /** Its id in server_instances. */
  id: string;
  /** What it printed. */
  output(): string;
  /** kill -9. */
  kill(): void;
}

/** A host enrolled in the cluster: its agent process, ids and the login for the gateway. */
export interface ClusterHost {
  agent: AgentProcess;
  agentId: string;
  definitionId: string;
  /** `ssh` destination: `email@hostname@127.0.0.1`. */
  login: string;
}

/**
 * Two (or more) built server instances (apps/server/dist/main.js) sharing a fresh PostgreSQL
 * database (TEST_DATABASE_URL) and Redis (REDIS_URL), behind a real HAProxy: an HTTP+WebSocket
 * frontend and an SSH TCP frontend, both roundrobin with health checks on /api/health/ready. Real sshd;
 * real agents enrolled with `enrolHost`. Everything on 127.0.0.1 with random ports.
 */
export interface ClusterRig {
  instances: ClusterInstance[];
  /** The balancer's HTTP URL and SSH port. */
  balancer: { url: string; sshPort: number };
  /** The administrator's token (tokens live in SQL: valid on every instance). */
  token: string;
  sshd: Sshd;
  /** The administrator's SSH key file (registered), for `ssh -i`. */
  keyFile: string;
  /** SQL on the cluster's database. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** One JSON call (status and body) to a base URL (an instance or the balancer). */
  api<T>(base: string, method: string, pathName: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Enrols a host whose agent connects to `server` (an instance's URL or the balancer's). */
  enrolHost(hostname: string, server: string): Promise<ClusterHost>;
  /** Restarts a host's agent (same identity) against another server URL. */
  moveAgent(host: ClusterHost, server: string): Promise<void>;
  /** Which instance holds an agent's socket now (by server_instances id), if any. */
  holderOf(agentId: string): Promise<string | undefined>;
  /** `ssh` arguments for a session through the gateway on `port` running `command`. */
  ssh(host: ClusterHost, port: number, ...command: string[]): string[];
  /** What HAProxy printed. */
  balancerOutput(): string;
  stop(): Promise<void>;
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    if (child.exitCode !== null) throw new Error(`haproxy exited ${child.exitCode}: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}: ${output()}`);
}

/** HAProxy's configuration for the instances: what docs/deploy/cluster.md shows, on test ports. */
export function haproxyConfig(
  ports: { http: number; ssh: number },
  instances: { name: string; httpPort: number; sshPort: number }[],
): string {
  const servers = (port: (i: (typeof instances)[number]) => string) =>
    instances.map((i) => `  server ${i.name} ${port(i)} check inter 500ms fall 2 rise 1`).join('\n');
  return `global
  maxconn 2000

defaults
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # WebSockets (agents, consoles, tunnels) and SSH connections live long.
  timeout tunnel 1h
  retries 3
  option redispatch

frontend gatehouse_http
  mode http
  bind 127.0.0.1:${ports.http}
  # Relays between instances go straight to each instance's advertised URL, never through here.
  http-request deny deny_status 404 if { path_beg /api/internal/ }
  default_backend gatehouse_http

backend gatehouse_http
  mode http
  balance roundrobin
  # The instances read the client's address from X-Forwarded-For (GATEHOUSE_TRUST_PROXY=true).
  option forwardfor
  option httpchk GET /api/health/ready
${servers((i) => `127.0.0.1:${i.httpPort}`)}

frontend gatehouse_ssh
  mode tcp
  bind 127.0.0.1:${ports.ssh}
  default_backend gatehouse_ssh

backend gatehouse_ssh
  mode tcp
  balance roundrobin
  # Checked over HTTP, so health checks never count as failed SSH logins.
  option httpchk GET /api/health/ready
${instances.map((i) => `  server ${i.name} 127.0.0.1:${i.sshPort} check port ${i.httpPort} inter 500ms fall 2 rise 1`).join('\n')}
`;
}

/** Starts the cluster; `env` is added to every instance's environment (object storage, for one). */
export async function startClusterRig(
  options: { count?: number; env?: Record<string, string> } = {},
): Promise<ClusterRig> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const dbName = `gh_cluster_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const dbUrl = new URL(base);
  dbUrl.pathname = `/${dbName}`;
  const sql = new pg.Client({ connectionString: dbUrl.toString() });
  await sql.connect();
  sql.on('error', () => undefined);
  const dirs: string[] = [];
  const tmp = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const secretKey = randomBytes(32).toString('hex');
  const instances: ClusterInstance[] = [];
  const agents: AgentProcess[] = [];
  let balancer: ChildProcess | undefined;
  let balancerOut = '';
  let sshd: Sshd | undefined;
  const stop = async () => {
    balancer?.kill('SIGKILL');
    for (const agent of agents) agent.child.kill('SIGKILL');
    for (const instance of instances) instance.kill();
    sshd?.stop();
    await sql.end().catch(() => undefined);
    const cleanup = new pg.Client({ connectionString: base });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await cleanup.end();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const names = ['a', 'b', 'c', 'd'].slice(0, options.count ?? 2);
    for (const name of names) {
      // One after the other: the first migrates and makes the sealed keys, the next finds them.
      const started = await startServerProcess({
        DATABASE_URL: dbUrl.toString(),
        REDIS_URL: process.env.REDIS_URL ?? '',
        GATEHOUSE_SECRET_KEY: secretKey,
        GATEHOUSE_DATA_DIR: tmp(`gh-cluster-${name}-`),
        GATEHOUSE_ADMIN_EMAIL: CLUSTER_ADMIN.email,
        GATEHOUSE_ADMIN_PASSWORD: CLUSTER_ADMIN.password,
        GATEHOUSE_TRUST_PROXY: 'true',
        ...options.env,
      });
      let out = '';
      started.child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
      started.child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
      const rows = await sql.query<{ id: string }>(
        'SELECT id FROM server_instances WHERE gone_at IS NULL AND advertise_url = $1',
        [started.url],
      );
      if (!rows.rows[0]) throw new Error(`instance ${name} did not advertise ${started.url}`);
      instances.push({
        name,
        child: started.child,
        url: started.url,
        sshPort: started.sshPort,
        id: rows.rows[0].id,
        output: () => out,
        kill: () => {
          if (started.child.exitCode === null) started.child.kill('SIGKILL');
        },
      });
    }
    const ports = { http: await freePort(), ssh: await freePort() };
    const config = path.join(tmp('gh-haproxy-'), 'haproxy.cfg');
    fs.writeFileSync(
      config,
      haproxyConfig(
        ports,
        instances.map((i) => ({ name: i.name, httpPort: Number(new URL(i.url).port), sshPort: i.sshPort })),
      ),
    );
    balancer = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    balancer.stdout?.on('data', (c: Buffer) => (balancerOut += c.toString()));
    balancer.stderr?.on('data', (c: Buffer) => (balancerOut += c.toString()));
    await waitForPort(ports.http, balancer, () => balancerOut);
    await waitForPort(ports.ssh, balancer, () => balancerOut);
    const balancerUrl = `http://127.0.0.1:${ports.http}`;

    let token = '';
    const api = async <T>(url: string, method: string, pathName: string, body?: unknown) => {
      const res = await fetch(`${url}${pathName}`, {
        method,
        headers: {
          ...(token ? { 'authentication-token': token } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body: parsed as T };
    };
    // Until both instances answer health checks, the balancer may have none up.
    token = (
      await eventually(
        () =>
          api<{ response?: { user: { authentication_token: string } } }>(
            balancerUrl,
            'POST',
            '/api/login?include_auth_token',
            CLUSTER_ADMIN,
          ),
        (r) => r.status === 200,
        15_000,
      )
    ).body.response!.user.authentication_token;
    sshd = await startSshd();
    const keys = tmp('gh-cluster-keys-');
    const me = userKey(keys, 'cluster-admin');
    await api(balancerUrl, 'POST', '/api/user/me/ssh-keys', { name: 'laptop', public_key: me.publicKey });
    const adminId = (
      await api<{ users: { id: string; email: string }[] }>(balancerUrl, 'GET', '/api/user')
    ).body.users.find((u) => u.email === CLUSTER_ADMIN.email)!.id;
    const theSshd = sshd;

    const holderOf = async (agentId: string) =>
      (
        await sql.query<{ instance_id: string | null }>(
          `SELECT a.instance_id FROM agents a JOIN server_instances s ON s.id = a.instance_id
            WHERE a.id = $1 AND a.connected AND s.gone_at IS NULL`,
          [agentId],
        )
      ).rows[0]?.instance_id ?? undefined;

    const connectedTo = async (agent: AgentProcess, agentId: string, server: string) => {
      // Connected where asked: through an instance's own URL, that instance holds it.
      const direct = instances.find((i) => i.url === server);
      await eventually(
        () => holderOf(agentId),
        (holder) => (direct ? holder === direct.id : holder !== undefined),
        15_000,
      ).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}; agent said: ${agent.output()}`);
      });
    };

    return {
      instances,
      balancer: { url: balancerUrl, sshPort: ports.ssh },
      token,
      sshd: theSshd,
      keyFile: me.file,
      query: async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
        (await sql.query<T>(text, values)).rows,
      api,
      holderOf,
      async enrolHost(hostname, server) {
        const { key } = (await api<{ key: string }>(balancerUrl, 'POST', '/api/apikey', { description: hostname }))
          .body;
        const agent = startAgent({ server, key, hostname });
        agents.push(agent);
        const agentId = (await eventually(
          async () =>
            (await sql.query<{ id: string }>('SELECT id FROM agents WHERE hostname = $1', [hostname])).rows[0]?.id,
          (id) => id !== undefined,
          15_000,
        ))!;
        await connectedTo(agent, agentId, server);
        await api(balancerUrl, 'POST', `/api/agent/${agentId}/config`, { whitelist: [theSshd.port] });
        await eventually(
          async () => {
            const file = path.join(agent.stateDir, 'config.json');
            return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
          },
          (text) => text.includes(String(theSshd.port)),
        );
        const def = await api<{ definition: { id: string; public_key: string } }>(
          balancerUrl,
          'POST',
          '/api/tunneldefinition/ssh',
          { name: `${hostname} shell`, host_id: agentId, port: theSshd.port, ssh_login: theSshd.login },
        );
        theSshd.authorizeKey(def.body.definition.public_key);
        await api(balancerUrl, 'PUT', `/api/tunneldefinition/${def.body.definition.id}/users`, { users: [adminId] });
        return { agent, agentId, definitionId: def.body.definition.id, login: `${CLUSTER_ADMIN.email}@${hostname}` };
      },
      async moveAgent(host, server) {
        host.agent.child.kill('SIGKILL');
        await host.agent.exited;
        // The agent dials the server its identity names: as if it had enrolled through `server`.
        const file = path.join(host.agent.stateDir, 'identity.json');
        const identity = JSON.parse(fs.readFileSync(file, 'utf8')) as { server: string };
        fs.writeFileSync(file, JSON.stringify({ ...identity, server }), { mode: 0o600 });
        const agent = startAgent({ server, hostname: host.login.split('@').pop()!, stateDir: host.agent.stateDir });
        agents.push(agent);
        host.agent = agent;
        await connectedTo(agent, host.agentId, server);
      },
      ssh: (host, port, ...command) => ['-p', String(port), '-i', me.file, `${host.login}@127.0.0.1`, ...command],
      balancerOutput: () => balancerOut,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
