import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../test/agent-process.js';
import { type ClusterHost, type ClusterRig, clusterSkipReason, startClusterRig } from '../test/cluster-rig.js';
import { type S3Server, startS3Server } from '../test/s3-server.js';
import { ssh } from '../test/sshd.js';
import { sshSession } from '../test/flood-rig.js';

const skip = clusterSkipReason();

type Row = { id: string; instance_id: string | null; ended_on: Date | null; end_reason: string | null };
type Stored = { storage: string; storage_path: string; object_key: string | null };

// Issue 17 item 5: two built instances on one PostgreSQL and one Redis behind HAProxy, a real
// agent and sshd, OpenSSH's client. Each agent holds one socket to one instance; a session on the
// other is relayed to it (ADR 0007).
describe.skipIf(skip !== undefined)(
  `instances that act as one behind HAProxy${skip ? ` — skipped: ${skip}` : ''}`,
  () => {
    let rig: ClusterRig;
    let web: ClusterHost;
    // Recordings in object storage shared by both instances: a real S3-compatible server (s3rver).
    const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-cluster-s3-'));
    let s3: S3Server | undefined;
    const recordingsOf = (agentId: string) =>
      rig.query<Row>(
        'SELECT id, instance_id, ended_on, end_reason FROM recordings WHERE agent_id = $1 ORDER BY started_on',
        [agentId],
      );

    beforeAll(async () => {
      s3 = await startS3Server(s3Dir, { buckets: ['gatehouse-cluster'] });
      rig = await startClusterRig({ env: s3.env() });
      web = await rig.enrolHost('web-a', rig.instances[0]!.url);
    }, 60_000);

    afterAll(async () => {
      await rig?.stop();
      await s3?.server.close();
      fs.rmSync(s3Dir, { recursive: true, force: true });
    });

    it('OpenSSH reaches the host whichever instance holds its agent and whichever the session lands on', async () => {
      const [a, b] = rig.instances as [ClusterRig['instances'][number], ClusterRig['instances'][number]];
      // The agent is on A: a session on B is relayed through A, and one on A is A's own.
      expect(await rig.holderOf(web.agentId)).toBe(a.id);
      for (const instance of [b, a]) {
        const run = await ssh(rig.ssh(web, instance.sshPort, `echo on-${instance.name}-$((40+2))`)).done;
        expect(run.stdout, run.stderr).toContain(`on-${instance.name}-42`);
      }
      // The other way round: the agent on B, a session on A.
      await rig.moveAgent(web, b.url);
      expect(await rig.holderOf(web.agentId)).toBe(b.id);
      const back = await ssh(rig.ssh(web, a.sshPort, 'echo back-$((6*7))')).done;
      expect(back.stdout, back.stderr).toContain('back-42');
      // Through the balancer: roundrobin lands one session on each instance; both reach the host.
      for (const n of [1, 2]) {
        const run = await ssh(rig.ssh(web, rig.balancer.sshPort, `echo balanced-${n}`)).done;
        expect(run.stdout, run.stderr).toContain(`balanced-${n}`);
      }
      const rows = await recordingsOf(web.agentId);
      expect(rows.map((r) => r.instance_id)).toEqual([b.id, a.id, a.id, expect.any(String), expect.any(String)]);
      expect(new Set(rows.slice(3).map((r) => r.instance_id))).toEqual(new Set([a.id, b.id]));
    }, 60_000);

    it('a recording made on one instance is replayed from the other and through the balancer, from object storage', async () => {
      const [first] = await recordingsOf(web.agentId);
      const recorder = rig.instances.find((i) => i.id === first!.instance_id)!;
      const other = rig.instances.find((i) => i.id !== first!.instance_id)!;
      // Finished: its files are objects, and the recorder's disk keeps none of them.
      const [stored] = await eventually(
        () => rig.query<Stored>('SELECT storage, storage_path, object_key FROM recordings WHERE id = $1', [first!.id]),
        (rows) => rows[0]?.storage === 's3',
      );
      expect(stored!.object_key).toBeTruthy();
      expect(fs.existsSync(stored!.storage_path)).toBe(false);
      for (const base of [other.url, rig.balancer.url]) {
        const whole = await fetch(`${base}/api/recording/${first!.id}/cast`, {
          headers: { 'authentication-token': rig.token },
        });
        expect(whole.status).toBe(200);
        const cast = await whole.text();
        expect(cast).toContain(`on-${recorder.name}-42`);
        const part = await fetch(`${base}/api/recording/${first!.id}/cast`, {
          headers: { 'authentication-token': rig.token, range: 'bytes=0-9' },
        });
        expect(part.status).toBe(206);
        expect(await part.text()).toBe(cast.slice(0, 10));
      }
      const verify = await rig.api<{ status: string }>(other.url, 'GET', `/api/recording/${first!.id}/verify`);
      expect(verify.status).toBe(200);
      expect(JSON.stringify(verify.body)).toMatch(/intact/i);
    }, 30_000);

    it('a config saved on an instance that does not hold the agent reaches the agent', async () => {
      // The relay path is not served through the balancer (the signature protects it either way).
      expect((await fetch(`${rig.balancer.url}/api/internal/relay`)).status).toBe(404);
      const holder = await rig.holderOf(web.agentId);
      const a = rig.instances.find((i) => i.id !== holder)!;
      const saved = await rig.api<{ applied: boolean; whitelist: number[] }>(
        a.url,
        'POST',
        `/api/agent/${web.agentId}/config`,
        { whitelist: [rig.sshd.port, 4455] },
      );
      expect(saved.status).toBe(200);
      expect(saved.body.applied).toBe(true);
      expect([...saved.body.whitelist].sort()).toEqual([rig.sshd.port, 4455].sort());
      await eventually(
        async () => fs.readFileSync(path.join(web.agent.stateDir, 'config.json'), 'utf8'),
        (text) => text.includes('4455'),
      );
    }, 20_000);

    it('a tunnel opened on the instance that does not hold the agent reaches the host', async () => {
      const holder = await rig.holderOf(web.agentId);
      const elsewhere = rig.instances.find((i) => i.id !== holder)!;
      const def = await rig.api<{ definition: { id: string } }>(
        elsewhere.url,
        'POST',
        '/api/tunneldefinition/generic',
        {
          name: 'web-a sshd',
          host_id: web.agentId,
          port: rig.sshd.port,
        },
      );
      const me = (await rig.api<{ users: { id: string; email: string }[] }>(elsewhere.url, 'GET', '/api/user')).body
        .users[0]!.id;
      await rig.api(elsewhere.url, 'PUT', `/api/tunneldefinition/${def.body.definition.id}/users`, { users: [me] });
      const ws = new WebSocket(
        `${elsewhere.url.replace(/^http/, 'ws')}/api/tunnel/connect?definition=${def.body.definition.id}`,
        { headers: { 'authentication-token': rig.token } },
      );
      let banner = '';
      ws.on('message', (data: Buffer, binary: boolean) => {
        if (binary) banner += data.toString();
      });
      await eventually(
        async () => banner,
        (text) => text.startsWith('SSH-2.0-'),
      );
      ws.close();
      // Recorded on the instance it reached; ended once closed.
      const rows = await eventually(
        () => recordingsOf(web.agentId),
        (all) => all.every((r) => r.ended_on !== null),
      );
      expect(rows.at(-1)?.instance_id).toBe(elsewhere.id);
    }, 20_000);

    it('a relayed session is watched and terminated from the instance holding the agent', async () => {
      const [a, b] = rig.instances as [ClusterRig['instances'][number], ClusterRig['instances'][number]];
      // The agent is on B; the session lands on A (relayed through B); the console talks to B.
      const live = ssh(rig.ssh(web, a.sshPort, 'for i in $(seq 1 300); do echo far-tick-$i; sleep 0.1; done'));
      const rec = (
        await eventually(
          () => recordingsOf(web.agentId),
          (rows) => rows.some((r) => r.ended_on === null),
        )
      ).find((r) => r.ended_on === null)!;
      expect(rec.instance_id).toBe(a.id);
      const watcher = connectSocket(b.url, {
        auth: { token: rig.token },
        transports: ['websocket'],
        reconnection: false,
      });
      const seen: string[] = [];
      watcher.on('record_out', (m: { seq: number; events: [number, string, string][] }) => {
        if (m.seq > 0) seen.push(...m.events.map((e) => e[2]));
      });
      const terminated = new Promise((resolve) => watcher.on('tunnel_terminated', resolve));
      watcher.emit('new_record_attach', { recording_id: rec.id, replay: true });
      await eventually(
        async () => seen.join(''),
        (text) => /far-tick-\d+/.test(text),
      );
      const res = await rig.api<{ message: string }>(b.url, 'DELETE', `/api/tunnel/${rec.id}`);
      expect(res).toEqual({ status: 200, body: { message: 'Session terminated' } });
      const ended = await live.done;
      expect(ended.stderr).toContain('terminated by');
      await terminated;
      watcher.close();
      const [row] = await eventually(
        () => rig.query<Row>('SELECT id, instance_id, ended_on, end_reason FROM recordings WHERE id = $1', [rec.id]),
        (rows) => rows[0]?.ended_on !== null,
      );
      expect(row?.end_reason).toBe('terminated');
    }, 30_000);

    it('kill -9 of one instance: the other’s sessions go on, the agent comes back through the balancer, new sessions work within 15 s', async () => {
      // The agent of web-a connects through the balancer; web-b's agent and a session stay on the other instance.
      await rig.moveAgent(web, rig.balancer.url);
      const doomedId = (await rig.holderOf(web.agentId))!;
      const doomed = rig.instances.find((i) => i.id === doomedId)!;
      const survivor = rig.instances.find((i) => i.id !== doomedId)!;
      const other = await rig.enrolHost('web-b', survivor.url);
      const session = sshSession(rig.ssh(other, survivor.sshPort, 'cat'), true);
      session.child.stdin!.write('before-kill\n');
      await eventually(
        async () => session.stdout(),
        (out) => out.includes('before-kill'),
      );

      const killed = Date.now();
      doomed.kill();
      // The session on the survivor goes on.
      session.child.stdin!.write('after-kill\n');
      await eventually(
        async () => session.stdout(),
        (out) => out.includes('after-kill'),
      );
      // The agent is back, on the survivor, through the balancer.
      await eventually(
        () => rig.holderOf(web.agentId),
        (holder) => holder === survivor.id,
        15_000,
      );
      // A new session through the balancer reaches web-a again.
      let fresh: Awaited<ReturnType<typeof ssh>['done']> | undefined;
      while (Date.now() - killed < 15_000) {
        fresh = await ssh(rig.ssh(web, rig.balancer.sshPort, 'echo again-$((40+2))'), { timeoutMs: 10_000 }).done;
        if (fresh.stdout.includes('again-42')) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(fresh?.stdout, fresh?.stderr).toContain('again-42');
      expect(Date.now() - killed).toBeLessThan(15_000);
      session.child.stdin!.write('still-here\n');
      await eventually(
        async () => session.stdout(),
        (out) => out.includes('still-here'),
      );
      session.child.stdin!.end();
      expect(await session.exited).toBe(0);
    }, 45_000);
  },
);
