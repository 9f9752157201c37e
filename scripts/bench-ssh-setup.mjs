// The SSH path the gateway benchmarks drive, as scripts/bench-gateway.mjs sets it up: Debian's
// sshd on loopback (the target), the built server as its own process (`node apps/server/dist/main.js`,
// embedded PGlite in a data folder, as deployed), a real agent process, an SSH definition granted to
// the administrator, and the OpenSSH client's arguments for the gateway and for the sshd directly.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
/** The administrator the bench signs in as (the same as scripts/bench-server.mjs). */
export const ADMIN = { email: 'bench@example.test', password: 'bench-password-1' };

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in bytes (VmRSS), or undefined once it is gone. */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Host and user keys (ed25519) in `tmp`, the user's key authorized for sshd. */
export function makeSshKeys(tmp) {
  for (const name of ['host_key', 'user_key'])
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(tmp, name)]);
  fs.writeFileSync(path.join(tmp, 'authorized_keys'), fs.readFileSync(path.join(tmp, 'user_key.pub'), 'utf8'), {
    mode: 0o600,
  });
}

/**
 * Debian's sshd on 127.0.0.1:`port` with the keys of makeSshKeys, logins for the current user by
 * key only; `name` names its config and pid files (two can run from one folder), `max` raises
 * MaxStartups and MaxSessions for benches that open many sessions at once.
 */
export function startSshd(tmp, port, { name = 'sshd', max } = {}) {
  fs.mkdirSync('/run/sshd', { recursive: true });
  const config = path.join(tmp, `${name}_config`);
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${tmp}/host_key`,
      `PidFile ${tmp}/${name}.pid`,
      `AuthorizedKeysFile ${tmp}/authorized_keys`,
      'PasswordAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      ...(max ? [`MaxStartups ${max}`, `MaxSessions ${max}`] : []),
      'LogLevel QUIET',
    ].join('\n'),
  );
  return spawn('/usr/sbin/sshd', ['-D', '-f', config], { stdio: 'ignore' });
}

/** The OpenSSH client's options for the bench's user key: no prompts, no known hosts, no multiplexing. */
export function sshClientArgs(tmp) {
  const options = ['StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null', 'BatchMode=yes', 'LogLevel=ERROR'];
  options.push('ControlMaster=no', 'ControlPath=none');
  return ['-i', path.join(tmp, 'user_key'), ...options.flatMap((o) => ['-o', o])];
}

/** Calls the server's JSON API with the console's token header; answers the parsed body. */
export function apiCaller(url, { strict = false } = {}) {
  return async (method, route, token, body) => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: {
        ...(token ? { 'authentication-token': token } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (strict && !res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
}

/**
 * A real agent process enrolled with registration key `key`, waited for until the server lists it
 * connected. It runs the one-file agent that hosts install (apps/agent/dist/gatehouse-agent.mjs,
 * built by `npm run build`), which carries no native helper for `ws`; dist/cli.js would find the
 * server's bufferutil in node_modules and mask faster than any deployed agent. `nodeArgs` go
 * before the script (a CPU profile, say); `spawnFn` lets a bench start it in its own process group.
 */
export async function startAgent({ url, key, tmp, hostname, call, token, nodeArgs = [], spawnFn = spawn }) {
  const agent = spawnFn(
    process.execPath,
    [
      ...nodeArgs,
      'apps/agent/dist/gatehouse-agent.mjs',
      '--server',
      url,
      '--key',
      key,
      '--state-dir',
      path.join(tmp, 'agent'),
      '--hostname',
      hostname,
    ],
    { stdio: 'ignore' },
  );
  let agentId;
  for (const started = Date.now(); !agentId;) {
    // An agent that gave up (its registration timed out on a loaded machine) ends the run, not a wait forever.
    if (agent.exitCode !== null) throw new Error(`the agent exited (${agent.exitCode}) before it connected`);
    if (Date.now() - started > 120_000) throw new Error('the agent did not connect within 120 s');
    await sleep(100);
    agentId = (await call('GET', '/api/agent', token)).agents.find((a) => a.connected)?.id;
  }
  return { agent, agentId };
}

/**
 * The login on the bench's sshd: BENCH_LOGIN, or the current user. A login shell runs its user's
 * profile, and a root profile that does slow work at every login (pyenv's `init`, say, whose rehash
 * takes a lock all shells share) measures that profile instead of the gateway: with 1,000 sessions
 * it kept 80 % of them from answering (2026-11-27). BENCH_LOGIN names a user with a plain home, made
 * once with `useradd -m -s /bin/bash -p '*' gh-bench` (`-p '*'`: no password, and not locked, which
 * sshd without PAM would refuse); it needs the bench run as root, whose sshd may log
 * in as another user, and it opens the bench's folder for that user to read the authorized keys
 * (sshd reads them as the user): the folder becomes traversable, the key file readable, and the
 * private keys stay the owner's.
 */
export function benchLogin(tmp) {
  const login = process.env.BENCH_LOGIN;
  if (!login) return os.userInfo().username;
  fs.chmodSync(tmp, 0o711);
  fs.chmodSync(path.join(tmp, 'authorized_keys'), 0o644);
  return login;
}

/**
 * The sshd at `sshdPort` reachable through the agent: its port allowed, an SSH definition logging in
 * as the current user (its public key authorized), the bench's user key on the signed-in user's
 * account and the definition granted to them. Answers the OpenSSH login used and the user.
 */
export async function grantSshTarget({ call, token, agentId, sshdPort, tmp }) {
  await call('POST', `/api/agent/${agentId}/config`, token, { whitelist: [sshdPort] });
  const login = benchLogin(tmp);
  const def = (
    await call('POST', '/api/tunneldefinition/ssh', token, {
      name: 'bench',
      host_id: agentId,
      port: sshdPort,
      ssh_login: login,
    })
  ).definition;
  fs.appendFileSync(path.join(tmp, 'authorized_keys'), `${def.public_key}\n`);
  await call('POST', '/api/user/me/ssh-keys', token, {
    name: 'bench',
    public_key: fs.readFileSync(path.join(tmp, 'user_key.pub'), 'utf8'),
  });
  const me = (await call('GET', '/api/user', token)).users[0];
  await call('PUT', `/api/tunneldefinition/${def.id}/users`, token, { users: [me.id] });
  return { login, me };
}

/**
 * Room for `total` SSH connections still signing in, with no per-address cap: automation opens many
 * sessions from one address (README, "Limits").
 */
export async function raiseSshLimits(call, token, total) {
  const limits = { ssh_max_unauthenticated_per_address: 0, ssh_max_unauthenticated: total };
  if ((await call('POST', '/api/settings', token, limits)).ssh_max_unauthenticated !== total)
    throw new Error('the bench could not raise the SSH login limits');
}

/** Starts sshd, the server process and an agent in `tmp`; answers what a bench needs and stop(). */
export async function startSshStack(tmp, { env = {} } = {}) {
  makeSshKeys(tmp);
  const sshdPort = await freePort();
  const sshd = startSshd(tmp, sshdPort, { max: 5000 });

  // The server as deployed: its own process, PGlite on disk, logs off (its RSS is read from /proc).
  const port = await freePort();
  const sshPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      GATEHOUSE_SSH_PORT: String(sshPort),
      GATEHOUSE_SSH_HOST: '127.0.0.1',
      GATEHOUSE_DATA_DIR: path.join(tmp, 'data'),
      GATEHOUSE_ADMIN_EMAIL: ADMIN.email,
      GATEHOUSE_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      GATEHOUSE_LOGIN_RATE_LIMIT: '100000',
      ...env,
    },
  });
  const call = apiCaller(url);
  let token;
  for (let waited = 0; !token; waited += 200) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before it answered`);
    if (waited > 120_000) throw new Error('the server did not answer within 120 s');
    await sleep(200);
    token = await call('POST', '/api/login', undefined, ADMIN)
      .then((r) => r.response?.user?.authentication_token)
      .catch(() => undefined);
  }
  const { key } = await call('POST', '/api/apikey', token, { description: 'bench' });
  const { agent, agentId } = await startAgent({ url, key, tmp, hostname: 'bench-host', call, token });
  const { login } = await grantSshTarget({ call, token, agentId, sshdPort, tmp });
  await raiseSshLimits(call, token, 5000);
  return {
    url,
    token,
    call,
    server,
    agent,
    sshdPort,
    sshArgs: sshClientArgs(tmp),
    viaGateway: ['-p', String(sshPort), `${ADMIN.email}@bench-host@127.0.0.1`],
    direct: ['-p', String(sshdPort), `${login}@127.0.0.1`],
    async stop() {
      agent.kill('SIGKILL');
      server.kill('SIGKILL');
      sshd.kill('SIGTERM');
      await sleep(300);
    },
  };
}
