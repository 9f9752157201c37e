import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { NOT_FILMED_ACTION, REASON_RECORDING_OFF } from '../recordings/capture-status.js';

const TUNNEL_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../agent/dist/tunnel-cli.js');

/** Starts `gatehouse tunnel …`; answers the local port it listens on, and its output as it grows. */
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

/** A TCP conversation through a local port that stays open: say something, hear it back, see it close. */
function converse(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let heard = '';
  let closed = false;
  socket.on('data', (c: Buffer) => (heard += c.toString()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return {
    socket,
    heard: () => heard,
    closed: () => closed,
    say: (text: string) => socket.write(text),
  };
}

// A real `gatehouse tunnel` → the server → a real agent that cannot film (ffmpeg missing, and the
// RDP port served by a TCP echo service, not xrdp: no session display to film) → the service.
// Before the agent reports capture status (helper B's change), it is an "old agent": no status
// within the timeout, which this test shortens to 2 s. Either way the session is unfilmed, and
// the definition's policy decides. The echo service stands in for an RDP server: what is tested
// is the policy, which never reads the RDP bytes.
describe.each(DATABASES)('unfilmed rdp sessions through tunnels on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let agent: AgentProcess;
  let agentId = '';
  const children: ChildProcess[] = [];
  const echo = net.createServer((s) => s.pipe(s));
  let echoPort = 0;
  const definitions: Record<'refuse' | 'allow', string> = { refuse: '', allow: '' };

  const open = async (definition: string) => {
    const tunnel = await startTunnel([
      definition,
      '--server',
      server.url,
      '--email',
      'ada@example.test',
      '--password',
      'ada-password',
      '--local-port',
      '0',
    ]);
    children.push(tunnel.child);
    return tunnel;
  };
  const latest = async (definitionId: string) =>
    (
      await server.call<{
        recordings: {
          id: string;
          tunnel: string | null;
          ended_on: string | null;
          end_reason: string | null;
          video_state?: string | null;
          video_note?: string | null;
        }[];
      }>('GET', '/api/recording?type=rdp', { token: admin })
    ).body.recordings.filter((r) => r.tunnel === (definitionId === definitions.refuse ? 'refusing' : 'allowing'));
  const audits = async () =>
    (await server.services.repositories.audit.list({ limit: 50, action: NOT_FILMED_ACTION })).map((a) => ({
      target: a.target,
      outcome: a.outcome,
      actor: a.actor,
      detail: a.detail as { reason: string; policy: string },
    }));
  const setRecording = async (enabled: boolean) => {
    await server.call('POST', `/api/agent/${agentId}/config`, {
      token: admin,
      body: { whitelist: [echoPort], recording_enabled: enabled },
    });
    await eventually(
      async () => fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8'),
      (text) => text.includes(String(echoPort)) && new RegExp(`"recording_enabled":\\s*${enabled}`).test(text),
    );
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    server.services.captureStatuses.timeoutMs = 2000;
    server.services.captureStatuses.pollMs = 300;
    admin = await server.login();
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoPort = (echo.address() as net.AddressInfo).port;
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 't', uses: 1 } })
    ).body.key;
    agent = startAgent({ server: server.url, key, hostname: 'win-01', args: ['--ffmpeg', '/nonexistent/ffmpeg'] });
    const list = await eventually(
      async () =>
        (
          await server.call<{ agents: { id: string; hostname: string; connected: boolean }[] }>('GET', '/api/agent', {
            token: admin,
          })
        ).body.agents,
      (a) => a.some((x) => x.connected),
    );
    agentId = list.find((a) => a.hostname === 'win-01')!.id;
    await setRecording(true);
    await server.createUser('ada@example.test', 'ada-password');
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    const ada = users.body.users.find((u) => u.email === 'ada@example.test')!.id;
    for (const [policy, name] of [
      ['refuse', 'refusing'],
      ['allow', 'allowing'],
    ] as const) {
      const created = await server.call<{ definition: { id: string; unfilmed_rdp?: string } }>(
        'POST',
        '/api/tunneldefinition/rdp',
        // The refusing one is created without the field: refuse is the default.
        { token: admin, body: { name, host_id: agentId, port: echoPort } },
      );
      expect(created.status).toBe(201);
      expect(created.body.definition.unfilmed_rdp).toBe('refuse');
      definitions[policy] = created.body.definition.id;
      if (policy === 'allow') {
        const changed = await server.call<{ definition: { unfilmed_rdp?: string } }>(
          'PUT',
          `/api/tunneldefinition/${definitions.allow}`,
          { token: admin, body: { unfilmed_rdp: 'allow' } },
        );
        expect(changed.body.definition.unfilmed_rdp).toBe('allow');
      }
      await server.call('PUT', `/api/tunneldefinition/${definitions[policy]}/users`, {
        token: admin,
        body: { users: [ada] },
      });
    }
  }, 120_000);

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    agent.child.kill('SIGKILL');
    echo.close();
    await server.stop();
  });

  it('answers the policy on rdp definitions only, refuse by default', async () => {
    const generic = await server.call('POST', '/api/tunneldefinition/generic', {
      token: admin,
      body: { name: 'web', host_id: agentId, port: echoPort, unfilmed_rdp: 'allow' },
    });
    expect(generic.status).toBe(400);
    const bad = await server.call('PUT', `/api/tunneldefinition/${definitions.refuse}`, {
      token: admin,
      body: { unfilmed_rdp: 'maybe' },
    });
    expect(bad.status).toBe(400);
    const lists = await server.call<{ rdp: { name: string; unfilmed_rdp?: string }[] }>(
      'GET',
      '/api/tunneldefinition/all',
      { token: admin },
    );
    expect(Object.fromEntries(lists.body.rdp.map((d) => [d.name, d.unfilmed_rdp]))).toEqual({
      refusing: 'refuse',
      allowing: 'allow',
    });
  });

  it('refuse: closes the tunnel with the reason the client prints, and ends the recording not-filmed', async () => {
    const tunnel = await open(definitions.refuse);
    expect(tunnel.port, tunnel.output()).toBeGreaterThan(0);
    const talk = converse(tunnel.port!);
    talk.say('hello');
    await eventually(
      async () => talk.heard(),
      (h) => h === 'hello',
    );
    await eventually(async () => talk.closed(), Boolean, 60_000);
    await eventually(
      async () => tunnel.output(),
      (o) => o.includes('Tunnel closed: Refused, not filmed:'),
    );
    const [rec] = await eventually(
      () => latest(definitions.refuse),
      (l) => l[0]?.ended_on !== null && l[0]?.video_state === 'not-filmed',
    );
    expect(rec).toMatchObject({ end_reason: 'not-filmed', video_state: 'not-filmed' });
    expect(rec!.video_note).toBeTruthy();
    const detail = await server.call<{ video_state: string; video_note: string }>(
      'GET',
      `/api/recording/${rec!.id}/data`,
      { token: admin },
    );
    expect(detail.body).toMatchObject({ video_state: 'not-filmed', video_note: rec!.video_note });
    const entry = (await audits()).find((a) => a.target === rec!.id);
    expect(entry).toMatchObject({
      outcome: 'denied',
      actor: 'ada@example.test',
      detail: { policy: 'refuse', reason: rec!.video_note },
    });
    // The host's last capture error is on the Agents screen.
    const agents = await server.call<{
      agents: { id: string; capture?: { filming: number; last_error: string | null; last_error_at: string | null } }[];
    }>('GET', '/api/agent', { token: admin });
    const capture = agents.body.agents.find((a) => a.id === agentId)!.capture;
    expect(capture).toMatchObject({ filming: 0 });
    expect(capture!.last_error).toBeTruthy();
    expect(Date.parse(capture!.last_error_at!)).toBeGreaterThan(Date.now() - 120_000);
  }, 90_000);

  it('allow: the session goes on, marked not filmed with the reason, and audited', async () => {
    const tunnel = await open(definitions.allow);
    const talk = converse(tunnel.port!);
    talk.say('one');
    await eventually(
      async () => talk.heard(),
      (h) => h === 'one',
    );
    const [rec] = await eventually(
      () => latest(definitions.allow),
      (l) => l[0]?.video_state === 'not-filmed',
      60_000,
    );
    expect(rec!.ended_on).toBeNull();
    expect(rec!.video_note).toBeTruthy();
    talk.say('two');
    await eventually(
      async () => talk.heard(),
      (h) => h === 'onetwo',
    );
    expect(talk.closed()).toBe(false);
    await eventually(audits, (l) => l.some((a) => a.target === rec!.id));
    expect((await audits()).find((a) => a.target === rec!.id)).toMatchObject({
      outcome: 'success',
      detail: { policy: 'allow', reason: rec!.video_note },
    });
    talk.socket.destroy();
  }, 90_000);

  it('recording off for the host: refuse answers before a byte reaches it; allow marks the session', async () => {
    await setRecording(false);
    const before = (await latest(definitions.refuse)).length;
    const refused = await open(definitions.refuse);
    const talk = converse(refused.port!);
    talk.say('nothing');
    await eventually(async () => talk.closed(), Boolean, 20_000);
    expect(talk.heard()).toBe('');
    await eventually(
      async () => refused.output(),
      (o) => o.includes(`Tunnel refused: Not filmed: ${REASON_RECORDING_OFF}`),
    );
    expect((await latest(definitions.refuse)).length).toBe(before);
    expect((await audits()).find((a) => a.target === definitions.refuse)).toMatchObject({
      outcome: 'denied',
      detail: { policy: 'refuse', reason: REASON_RECORDING_OFF },
    });

    const allowed = await open(definitions.allow);
    const kept = converse(allowed.port!);
    kept.say('still');
    await eventually(
      async () => kept.heard(),
      (h) => h === 'still',
    );
    const [rec] = await eventually(
      () => latest(definitions.allow),
      (l) => l[0]?.ended_on === null && l[0]?.video_state === 'not-filmed',
    );
    expect(rec!.video_note).toBe(REASON_RECORDING_OFF);
    kept.socket.destroy();
    await setRecording(true);
  }, 90_000);
});
