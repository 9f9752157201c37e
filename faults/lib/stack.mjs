// One whole installation for the probes: a server instance (PGlite in its data folder, or the suite's
// PostgreSQL cluster with its Redis), a real agent enrolled with a registration key through the API,
// an ssh tunnel definition to the suite's sshd, and the administrator's SSH key.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { api, eventually, signIn, ssh } from './clients.mjs';
import { ADMIN, freePort, startAgent } from './processes.mjs';
import { ServerInstance, serving } from './server.mjs';

/** Creates a fresh database `name` in the suite's cluster. */
export async function freshDatabase(cluster, name) {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url(name);
}

/**
 * Starts the installation. `mode` is 'pglite' or 'postgres' (then `cluster` and `redis` are the suite's
 * own). Answers the stack the probes share.
 */
export async function createStack({ mode, tmp, sshd, userKey, cluster, redis }) {
  const hostname = `faults-${mode}`;
  const env = {};
  let databaseUrl;
  if (mode === 'postgres') {
    databaseUrl = await freshDatabase(cluster, 'gatehouse');
    Object.assign(env, {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      GATEHOUSE_SECRET_KEY: randomBytes(32).toString('hex'),
    });
  }
  const server = new ServerInstance({
    name: `${mode}-a`,
    dataDir: path.join(tmp, `${mode}-a`, 'data'),
    port: await freePort(),
    sshPort: await freePort(),
    env,
  });
  await server.start();
  const stack = {
    mode,
    tmp,
    env,
    databaseUrl,
    cluster,
    redis,
    sshd,
    userKey,
    server,
    hostname,
    admin: ADMIN,
    token: await signIn(server.url, ADMIN),
    agentState: path.join(tmp, `${mode}-agent`),
    /** Other instances a probe started (their exits and memory are checked too). */
    extra: [],
  };
  const key = await api(server.url, 'POST', '/api/apikey', stack.token, { description: 'faults', uses: 50 });
  if (key.status !== 201) throw new Error(`registration key: ${key.status} ${JSON.stringify(key.body)}`);
  stack.key = key.body.key;
  stack.agent = startAgent({ server: server.url, key: stack.key, hostname, stateDir: stack.agentState });
  const listed = await eventually(
    () => api(server.url, 'GET', '/api/agent', stack.token),
    (r) => r.status === 200 && r.body.agents.some((a) => a.hostname === hostname && a.connected),
    60_000,
  );
  if (!listed) throw new Error(`the agent did not connect: ${stack.agent.output}`);
  stack.agentId = listed.body.agents.find((a) => a.hostname === hostname).id;
  await call(stack, 'POST', `/api/agent/${stack.agentId}/config`, { whitelist: [sshd.port] });
  const def = await call(stack, 'POST', '/api/tunneldefinition/ssh', {
    name: `faults-${mode}`,
    host_id: stack.agentId,
    port: sshd.port,
    ssh_login: sshd.login,
  });
  sshd.authorizeKey(def.definition.public_key);
  await call(stack, 'POST', '/api/user/me/ssh-keys', { name: `faults-${mode}`, public_key: userKey.publicKey });
  const users = await call(stack, 'GET', '/api/user');
  const me = users.users.find((u) => u.email === ADMIN.email);
  await call(stack, 'PUT', `/api/tunneldefinition/${def.definition.id}/users`, { users: [me.id] });
  const check = await sshWorks(stack);
  if (!check.ok) throw new Error(`a first ssh session through the gateway failed: ${check.detail}`);
  return stack;
}

/** An API call that must succeed; answers its body. */
export async function call(stack, method, url, body) {
  const res = await api(stack.server.url, method, url, stack.token, body);
  if (res.status < 200 || res.status > 299)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Whether the API lists the agent as connected (undefined when the API did not answer 200). */
export async function agentListed(stack) {
  const res = await api(stack.server.url, 'GET', '/api/agent', stack.token, undefined, 5000);
  if (res.status !== 200) return undefined;
  return res.body.agents.find((a) => a.id === stack.agentId)?.connected === true;
}

/** A short ssh session through the gateway (`echo ok`); answers {ok, ms, detail}. */
export async function sshWorks(stack, options = {}) {
  const session = ssh(stack, 'echo faults-ok', { timeoutMs: 30_000, ...options });
  const done = await session.done;
  const ok = done.code === 0 && session.stdout().toString().includes('faults-ok');
  return {
    ok,
    ms: done.ms,
    detail: ok ? '' : `exit ${done.code ?? done.signal}: ${session.stderr.trim().slice(-200)}`,
  };
}

/** Starts the agent again on its state folder (it is enrolled already). */
export function restartAgent(stack) {
  if (stack.agent.child.exitCode === null && stack.agent.child.signalCode === null) stack.agent.child.kill('SIGKILL');
  stack.agent = startAgent({ server: stack.server.url, hostname: stack.hostname, stateDir: stack.agentState });
  return stack.agent;
}

/**
 * Before each probe: a server that is down is started again, an agent that is gone is restarted, and
 * the agent must be connected. Answers what had to be done (empty when nothing).
 */
export async function ensureHealthy(stack) {
  const done = [];
  if (!stack.server.alive) {
    await stack.server.start();
    done.push('server started again (it had exited)');
  }
  await serving(stack.server);
  if (stack.agent.child.exitCode !== null || stack.agent.child.signalCode !== null) {
    restartAgent(stack);
    done.push('agent started again');
  }
  const connected = () =>
    eventually(
      () => agentListed(stack),
      (c) => c === true,
      30_000,
    );
  if (!(await connected())) {
    // A server left unable to take its agent back (a previous probe broke it) is started afresh, so
    // that the remaining probes still measure something; the note says so.
    await stack.server.kill();
    await stack.server.start();
    restartAgent(stack);
    done.push('server and agent started again (the agent could not connect)');
    if (!(await connected())) throw new Error('the agent is not connected before the probe');
  }
  return done;
}
