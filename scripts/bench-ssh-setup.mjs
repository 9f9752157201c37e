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

/** Starts sshd, the server process and an agent in `tmp`; answers what a bench needs and stop(). */
export async function startSshStack(tmp, { env = {} } = {}) {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(tmp, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(tmp, 'user_key')]);
  fs.mkdirSync('/run/sshd', { recursive: true });
  fs.writeFileSync(path.join(tmp, 'authorized_keys'), fs.readFileSync(path.join(tmp, 'user_key.pub'), 'utf8'), {
    mode: 0o600,
  });
  const sshdPort = await freePort();
  fs.writeFileSync(
    path.join(tmp, 'sshd_config'),
    [
      `Port ${sshdPort}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${tmp}/host_key`,
      `PidFile ${tmp}/sshd.pid`,
      `AuthorizedKeysFile ${tmp}/authorized_keys`,
      'PasswordAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'MaxStartups 5000',
      'MaxSessions 5000',
      'LogLevel QUIET',
    ].join('\n'),
  );
  const sshd = spawn('/usr/sbin/sshd', ['-D', '-f', path.join(tmp, 'sshd_config')], { stdio: 'ignore' });

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
  const call = async (method, route, token, body) =>
    (
      await fetch(`${url}${route}`, {
        method,
        headers: {
          ...(token ? { 'authentication-token': token } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json();
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
  const agent = spawn(
    process.execPath,
    [
      'apps/agent/dist/cli.js',
      '--server',
      url,
      '--key',
      key,
      '--state-dir',
      path.join(tmp, 'agent'),
      '--hostname',
      'bench-host',
    ],
    { stdio: 'ignore' },
  );
  let agentId;
  while (!agentId) {
    if (agent.exitCode !== null) throw new Error(`the agent exited (${agent.exitCode}) before it connected`);
    await sleep(100);
    agentId = (await call('GET', '/api/agent', token)).agents.find((a) => a.connected)?.id;
  }
  await call('POST', `/api/agent/${agentId}/config`, token, { whitelist: [sshdPort] });
  const login = os.userInfo().username;
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
  // Automation opens many sessions from one address: no per-address cap on connections still
  // signing in (README, "Limits"), and room for all of them in total.
  const limits = { ssh_max_unauthenticated_per_address: 0, ssh_max_unauthenticated: 5000 };
  if ((await call('POST', '/api/settings', token, limits)).ssh_max_unauthenticated !== 5000)
    throw new Error('the bench could not raise the SSH login limits');

  const sshArgs = [
    '-i',
    path.join(tmp, 'user_key'),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    '-o',
    'LogLevel=ERROR',
    '-o',
    'ControlMaster=no',
    '-o',
    'ControlPath=none',
  ];
  return {
    url,
    token,
    call,
    server,
    agent,
    sshdPort,
    sshArgs,
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
