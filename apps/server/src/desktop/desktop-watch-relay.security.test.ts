import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RELAY_PATH, signRelay } from '../cluster/relay-auth.js';
import { eventually } from '../test/agent-process.js';
import { type ClusterHost, type ClusterRig, clusterSkipReason, startClusterRig } from '../test/cluster-rig.js';
import { DesktopClient, type RdpHost, missingDesktopPrograms, openDesktop, startRdpHost } from '../test/desktop-rig.js';

const missing = missingDesktopPrograms();
const skip =
  clusterSkipReason() ?? (missing.length > 0 && !process.env.CI ? `${missing.join(', ')} missing` : undefined);

const SIZE = { width: 800, height: 600 };
/** The cluster secret the instances are given, so the attacks below can sign (or nearly sign) a relay. */
const SECRET = `desktop-relay-${randomBytes(16).toString('hex')}`;

/** Dials the relay of an instance as another instance would; answers the upgrade's status (101: opened). */
function dialRelay(url: string, signed: { headers: Record<string, string>; query: string }) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${RELAY_PATH}?${signed.query}`, { headers: signed.headers });
  return new Promise<{ status: number; body: string; ws: WebSocket }>((resolve, reject) => {
    ws.once('open', () => resolve({ status: 101, body: '', ws }));
    ws.once('unexpected-response', (request, response) => {
      let body = '';
      response.on('data', (c: Buffer) => (body += c.toString()));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body, ws });
      });
    });
    ws.once('error', reject);
  });
}

// Issue 18: a browser desktop runs in the instance that runs its Xvfb, FreeRDP and x11vnc; a
// watcher behind the balancer may reach any instance. Two built instances on one PostgreSQL and
// Redis, a real agent, a real RDP host (freerdp-shadow-cli), real FreeRDP/x11vnc at the gateway.
describe.skipIf(skip !== undefined)(
  `watching a browser desktop from another instance${skip ? ` — skipped: ${skip}` : ''}`,
  () => {
    let rig: ClusterRig;
    let host: RdpHost;
    let win: ClusterHost;
    let definitionId = '';
    let viewer = '';
    const ws = (base: string) => base.replace(/^http/, 'ws');
    const a = () => rig.instances[0]!;
    const b = () => rig.instances[1]!;

    /** A desktop opened on instance A by the administrator; answers the client and its recording id. */
    async function desktopOnA() {
      const { client, answer } = await openDesktop(`${ws(a().url)}/api/desktop/connect?definition=${definitionId}`, {
        token: rig.token,
        username: 'win-user',
        password: 'rdp-secret-9',
        ...SIZE,
      });
      expect(answer).toMatchObject({ ready: true });
      await client.handshake();
      return { client, recordingId: answer.recording_id as string };
    }

    async function watchOn(base: string, recordingId: string, token: string) {
      const client = new DesktopClient(`${ws(base)}/api/desktop/watch?recording=${recordingId}`);
      await client.opened();
      client.send({ token });
      return { client, answer: await client.text() };
    }

    beforeAll(async () => {
      expect(missing, 'programs the desktop needs').toEqual([]);
      rig = await startClusterRig({ env: { GATEHOUSE_CLUSTER_SECRET: SECRET } });
      host = await startRdpHost({ colour: '#00ff00', ...SIZE });
      // The agent connects to A: the desktop runs on A.
      win = await rig.enrolHost('win-relay', a().url);
      const saved = await rig.api(rig.balancer.url, 'POST', `/api/agent/${win.agentId}/config`, {
        whitelist: [host.port],
        recording_fps: 5,
      });
      expect(saved.status).toBe(200);
      const def = await rig.api<{ definition: { id: string } }>(rig.balancer.url, 'POST', '/api/tunneldefinition/rdp', {
        name: 'win relay desktop',
        host_id: win.agentId,
        port: host.port,
      });
      definitionId = def.body.definition.id;
      const users = await rig.api<{ users: { id: string; email: string }[] }>(rig.balancer.url, 'GET', '/api/user');
      await rig.api(rig.balancer.url, 'PUT', `/api/tunneldefinition/${definitionId}/users`, {
        users: users.body.users.map((u) => u.id),
      });
      // A user without list-recording: may not watch, on any instance.
      await rig.api(rig.balancer.url, 'POST', '/api/user', {
        email: 'viewer@example.test',
        password: 'viewer-password-1',
      });
      const login = await rig.api<{ response: { user: { authentication_token: string } } }>(
        rig.balancer.url,
        'POST',
        '/api/login?include_auth_token',
        { email: 'viewer@example.test', password: 'viewer-password-1' },
      );
      viewer = login.body.response.user.authentication_token;
    }, 120_000);

    afterAll(async () => {
      // Every desktop finished (its programs stopped) before the instances are killed: none is orphaned.
      if (rig)
        await eventually(
          () =>
            rig.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM recordings WHERE kind = 'desktop' AND ended_on IS NULL",
            ),
          (rows) => rows[0]?.n === 0,
          30_000,
        ).catch(() => undefined);
      await rig?.stop();
      await host?.stop();
    });

    it('a watcher on another instance sees the picture and cannot type', async () => {
      const { client: user, recordingId } = await desktopOnA();
      const [row] = await rig.query<{ instance_id: string; kind: string }>(
        'SELECT instance_id, kind FROM recordings WHERE id = $1',
        [recordingId],
      );
      expect(row).toEqual({ instance_id: a().id, kind: 'desktop' });
      // The session list tells it apart from a native RDP client, and filters by it.
      type List = { recordings: { id: string; type: string; kind: string | null }[] };
      const desktops = await rig.api<List>(rig.balancer.url, 'GET', '/api/recording?kind=desktop&live=true');
      expect(desktops.body.recordings.find((r) => r.id === recordingId)).toMatchObject({
        type: 'rdp',
        kind: 'desktop',
      });
      const shells = await rig.api<List>(rig.balancer.url, 'GET', '/api/recording?kind=shell&sort=kind');
      expect(shells.status).toBe(200);
      expect(shells.body.recordings.some((r) => r.id === recordingId)).toBe(false);
      const bogus = await rig.api<{ message: string }>(rig.balancer.url, 'GET', '/api/recording?kind=telnet');
      expect(bogus.status).toBe(400);
      expect(bogus.body.message).toContain('desktop');
      user.pointer(100, 100);
      await eventually(
        async () => host.pointer(),
        (p) => p.x === 100 && p.y === 100,
        15_000,
      );
      // B does not run this desktop: it watches through the relay to A.
      const { client: watcher, answer } = await watchOn(b().url, recordingId, rig.token);
      expect(answer).toEqual({ ready: true, ...SIZE });
      expect(await watcher.handshake()).toEqual(SIZE);
      expect(
        await eventually(
          () => watcher.pixel(200, 150),
          (c) => c[1] > 240 && c[0] < 16,
          15_000,
        ),
      ).toEqual([0, 255, 0]);
      // The watcher moves, clicks and types: nothing of it arrives.
      for (let i = 0; i < 5; i += 1) {
        watcher.pointer(600 + i, 400 + i);
        watcher.key(0x61);
      }
      watcher.ws.send(Buffer.from([5, 1, 2, 0x58, 1, 0x90]));
      await new Promise((r) => setTimeout(r, 2500));
      expect(host.pointer()).toEqual({ x: 100, y: 100 });
      // The user's input still goes through; the relayed picture keeps flowing.
      user.pointer(150, 120);
      await eventually(
        async () => host.pointer(),
        (p) => p.x === 150 && p.y === 120,
        15_000,
      );
      expect(await watcher.pixel(10, 10)).toEqual([0, 255, 0]);
      expect(b().output()).not.toContain(SECRET);
      // The user leaves: the remote watcher's socket closes as a local one's does.
      user.close();
      expect(await watcher.closed).toMatchObject({ code: 1000 });
    }, 120_000);

    it('terminating the desktop closes the remote watcher with the same code and reason as a local one', async () => {
      const { client: user, recordingId } = await desktopOnA();
      const local = await watchOn(a().url, recordingId, rig.token);
      const remote = await watchOn(b().url, recordingId, rig.token);
      expect(local.answer).toEqual({ ready: true, ...SIZE });
      expect(remote.answer).toEqual({ ready: true, ...SIZE });
      await Promise.all([local.client.handshake(), remote.client.handshake()]);
      // Terminated from B (A runs it: the order crosses through Redis).
      const res = await rig.api<{ message: string }>(b().url, 'DELETE', `/api/tunnel/${recordingId}`);
      expect(res.status).toBe(200);
      const [here, there, own] = await Promise.all([local.client.closed, remote.client.closed, user.closed]);
      expect(here.code).toBe(4001);
      expect(here.reason).toContain('Terminated by cluster-admin@example.test');
      expect(there).toEqual(here);
      expect(own).toEqual(here);
    }, 90_000);

    it('the access policy of the instance reached refuses a watcher who may not watch', async () => {
      const { client: user, recordingId } = await desktopOnA();
      const refused = await watchOn(b().url, recordingId, viewer);
      expect(refused.answer.error).toBeTruthy();
      expect((await refused.client.closed).code).toBe(4403);
      user.close();
      await user.closed;
    }, 60_000);

    it('a forged relay request for a desktop is refused, and a signed one only for a desktop live there', async () => {
      const { client: user, recordingId } = await desktopOnA();
      const fields = { action: 'desktop-watch' as const, source: b().id, target: a().id, agentId: '', port: 0 };
      // Signed with another secret: refused before anything about the desktop is looked at.
      const forged = await dialRelay(
        a().url,
        signRelay(Buffer.from('not-the-cluster-secret-at-all-000000', 'utf8'), { ...fields, recordingId }),
      );
      expect(forged.status).toBe(401);
      // Signed for another recording, then pointed at this one: the signature covers the recording.
      const other = signRelay(Buffer.from(SECRET, 'utf8'), { ...fields, recordingId: randomUUID() });
      const swapped = await dialRelay(a().url, {
        headers: other.headers,
        query: other.query.replace(/recording=[^&]+/, `recording=${recordingId}`),
      });
      expect(swapped.status).toBe(401);
      // No signature at all.
      const unsigned = await dialRelay(a().url, {
        headers: {},
        query: `action=desktop-watch&target=${a().id}&recording=${recordingId}`,
      });
      expect(unsigned.status).toBe(401);
      // Properly signed, but the desktop runs on A, not B: B has nothing live to give.
      const misdirected = await dialRelay(
        b().url,
        signRelay(Buffer.from(SECRET, 'utf8'), { ...fields, source: a().id, target: b().id, recordingId }),
      );
      expect(misdirected.status).toBe(404);
      // Properly signed for a recording that is no live desktop there.
      const unknown = await dialRelay(
        a().url,
        signRelay(Buffer.from(SECRET, 'utf8'), { ...fields, recordingId: randomUUID() }),
      );
      expect(unknown.status).toBe(404);
      // A replay of a request already used is refused.
      const once = signRelay(Buffer.from(SECRET, 'utf8'), { ...fields, recordingId });
      const first = await dialRelay(a().url, once);
      expect(first.status).toBe(101);
      first.ws.close();
      expect((await dialRelay(a().url, once)).status).toBe(401);
      for (const reason of ['bad signature', 'no signature', 'replayed nonce'])
        expect(a().output()).toContain(`relay request refused: ${reason}`);
      expect(a().output()).not.toContain(SECRET);
      user.close();
      await user.closed;
    }, 60_000);

    // Last: it stops instance B.
    it('the watcher’s instance stopping closes the watchers it relays with 1001; the desktop goes on', async () => {
      const { client: user, recordingId } = await desktopOnA();
      const remote = await watchOn(b().url, recordingId, rig.token);
      expect(remote.answer).toEqual({ ready: true, ...SIZE });
      await remote.client.handshake();
      b().child.kill('SIGTERM');
      const closed = await remote.client.closed;
      expect(closed.code).toBe(1001);
      // A runs the desktop still: the user's input reaches the host.
      user.pointer(321, 123);
      await eventually(
        async () => host.pointer(),
        (p) => p.x === 321 && p.y === 123,
        15_000,
      );
      expect(user.ws.readyState).toBe(WebSocket.OPEN);
      user.close();
      await user.closed;
    }, 60_000);
  },
);
