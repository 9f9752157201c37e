import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { converse, ffprobe, startTunnel, startXvfb, videoToolsMissing } from './video-fixtures.js';

const missing = videoToolsMissing();
if (missing) console.warn(`RDP capture tests skipped: ${missing}`);

type Playback = { available: boolean; video_bytes: number; content_type: string | null; live: boolean };

// A real agent captures a real X display (Xvfb) with ffmpeg while `gatehouse tunnel` carries an
// rdp session through the server to a TCP service; the video is uploaded as it records.
describe.each(DATABASES)('RDP session video on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let xvfb: { display: string; stop: () => void } | undefined;
  let desk: AgentProcess;
  let other: AgentProcess;
  let deskId = '';
  let definitionId = '';
  let noFfmpegDefinitionId = '';
  const children: ChildProcess[] = [];
  // The killed agent resets its connection to the echo service: that is expected, not a failure.
  const echo = net.createServer((s) => s.on('error', () => undefined).pipe(s));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-video-'));

  const identity = (agent: AgentProcess) =>
    JSON.parse(fs.readFileSync(path.join(agent.stateDir, 'identity.json'), 'utf8')) as {
      id: string;
      credential: string;
    };
  const upload = async (agent: AgentProcess, id: string, offset: number, body: Buffer, final = false) => {
    const who = identity(agent);
    const res = await fetch(`${server.url}/api/recording/${id}/video?offset=${offset}${final ? '&final=true' : ''}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/octet-stream',
        [AGENT_ID_HEADER]: who.id,
        [AGENT_CREDENTIAL_HEADER]: who.credential,
      },
      body,
    });
    return { status: res.status, body: (await res.json()) as { bytes?: number; message?: string } };
  };
  const playback = async (id: string) =>
    (await server.call<Playback>('GET', `/api/recording/${id}/playback_available`, { token: admin })).body;
  const latestRdp = async () =>
    (
      await server.services.database.query<{ id: string }>(
        "SELECT id FROM recordings WHERE type = 'rdp' ORDER BY started_on DESC LIMIT 1",
      )
    )[0]?.id;
  /** An rdp session of `ms` through the real tunnel client; answers its recording id. */
  const session = async (ms: number, during?: (before: string | undefined) => void, definition = definitionId) => {
    const before = await latestRdp();
    const tunnel = await startTunnel([
      definition,
      '--server',
      server.url,
      '--email',
      'admin@example.test',
      '--password',
      'first-admin-password',
      '--local-port',
      '0',
    ]);
    children.push(tunnel.child);
    during?.(before);
    const talk = await converse(tunnel.port, ms);
    const id = await eventually(latestRdp, (latest) => latest !== undefined && latest !== before);
    return { id: id!, talk };
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    if (!missing) xvfb = await startXvfb();
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const echoPort = (echo.address() as net.AddressInfo).port;
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', {
        token: admin,
        body: { description: 'video', uses: 2 },
      })
    ).body.key;
    desk = startAgent({
      server: server.url,
      key,
      hostname: 'desk-01',
      args: ['--capture-source', xvfb?.display ?? ':0'],
    });
    // A host without ffmpeg: its rdp sessions must work, only without video. (It names a plain X
    // display, as desk-01 does: without one the agent looks for an xrdp session, and the echo
    // service here is not xrdp.)
    other = startAgent({
      server: server.url,
      key,
      hostname: 'other-01',
      args: ['--ffmpeg', '/nonexistent/ffmpeg', '--capture-source', xvfb?.display ?? ':0'],
    });
    const list = await eventually(
      async () =>
        (
          await server.call<{ agents: { id: string; hostname: string; connected: boolean }[] }>('GET', '/api/agent', {
            token: admin,
          })
        ).body.agents,
      (a) => a.filter((x) => x.connected).length === 2,
    );
    deskId = list.find((a) => a.hostname === 'desk-01')!.id;
    await server.call('POST', `/api/agent/${deskId}/config`, {
      token: admin,
      body: {
        whitelist: [echoPort],
        recording_enabled: true,
        recording_fps: 5,
        recording_scale: 0.5,
        loglevel: 'INFO',
      },
    });
    await eventually(
      async () => fs.readFileSync(path.join(desk.stateDir, 'config.json'), 'utf8'),
      (text) => text.includes(String(echoPort)),
    );
    definitionId = (
      await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/rdp', {
        token: admin,
        body: { name: 'desk', host_id: deskId, port: echoPort },
      })
    ).body.definition.id;
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    await server.call('PUT', `/api/tunneldefinition/${definitionId}/users`, {
      token: admin,
      body: { users: [users.body.users.find((u) => u.email === 'admin@example.test')!.id] },
    });
    const otherId = list.find((a) => a.hostname === 'other-01')!.id;
    await server.call('POST', `/api/agent/${otherId}/config`, {
      token: admin,
      body: { whitelist: [echoPort], recording_enabled: true, loglevel: 'INFO' },
    });
    await eventually(
      async () => fs.readFileSync(path.join(other.stateDir, 'config.json'), 'utf8'),
      (text) => text.includes(String(echoPort)),
    );
    noFfmpegDefinitionId = (
      await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/rdp', {
        token: admin,
        // Its host cannot film: allowed through, marked not filmed (the default refuses; capture-status.test.ts).
        body: { name: 'other desk', host_id: otherId, port: echoPort, unfilmed_rdp: 'allow' },
      })
    ).body.definition.id;
    await server.call('PUT', `/api/tunneldefinition/${noFfmpegDefinitionId}/users`, {
      token: admin,
      body: { users: [users.body.users.find((u) => u.email === 'admin@example.test')!.id] },
    });
    await server.createUser('vera@example.test', 'vera-password', { permissions: ['list-recording'] });
    await server.createUser('nora@example.test', 'nora-password', { permissions: ['list-host'] });
  }, 90_000);

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    desk.child.kill('SIGKILL');
    other.child.kill('SIGKILL');
    xvfb?.stop();
    echo.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('appends only at the stored offset, from the recording’s own agent, for rdp sessions only', async () => {
    const start = (type: 'rdp' | 'generic') =>
      server.services.recordings.start({
        type,
        agentId: deskId,
        hostname: 'desk-01',
        userId: null,
        userEmail: 'admin@example.test',
        definitionId,
        definitionName: 'desk',
        width: 80,
        height: 24,
      });
    const rdp = await start('rdp');
    const generic = await start('generic');
    try {
      const first = Buffer.from('first piece ');
      expect(await upload(desk, rdp.id, 0, first)).toEqual({ status: 200, body: { bytes: first.length } });
      // The answer was lost and the agent sends the same piece again: acknowledged, not stored twice.
      expect(await upload(desk, rdp.id, 0, first)).toEqual({ status: 200, body: { bytes: first.length } });
      const gap = await upload(desk, rdp.id, first.length + 5, Buffer.from('x'));
      expect(gap.status).toBe(409);
      expect(gap.body.message).toContain(`offset must be ${first.length}`);
      expect((await upload(other, rdp.id, first.length, Buffer.from('x'))).status).toBe(403);
      expect((await upload(desk, generic.id, 0, Buffer.from('x'))).status).toBe(400);
      const second = Buffer.from('second piece');
      expect((await upload(desk, rdp.id, first.length, second, true)).body.bytes).toBe(first.length + second.length);
      expect((await upload(desk, rdp.id, first.length + second.length, Buffer.from('late'))).status).toBe(409);
      // 8 MiB a piece on this route; every other route keeps its 1 MiB limit for raw bytes too.
      const tooBig = await upload(desk, rdp.id, 0, Buffer.alloc(8 * 1024 * 1024 + 1));
      expect(tooBig.status).toBe(413);
      const bulky = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(2 * 1024 * 1024),
      });
      expect(bulky.status).toBe(413);
      const bytesToJson = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from('{}'),
      });
      expect(bytesToJson.status).toBe(400);
      const noAgent = await server.call('PUT', `/api/recording/${rdp.id}/video?offset=0`, {
        rawBody: 'x',
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(noAgent.status).toBe(401);

      expect(await playback(rdp.id)).toEqual({
        available: true,
        video_bytes: first.length + second.length,
        content_type: 'video/mp4',
        live: false,
      });
      expect(await playback(generic.id)).toMatchObject({ available: false, video_bytes: 0, content_type: null });
      const whole = await fetch(`${server.url}/api/recording/${rdp.id}/video`, {
        headers: { 'authentication-token': admin },
      });
      expect(whole.status).toBe(200);
      expect(await whole.text()).toBe('first piece second piece');
      const none = await server.call('GET', `/api/recording/${generic.id}/video`, { token: admin });
      expect(none.status).toBe(404);
      // list-recording without reach to the host: the session does not exist for them.
      const vera = await server.login('vera@example.test', 'vera-password');
      expect((await server.call('GET', `/api/recording/${rdp.id}/video`, { token: vera })).status).toBe(404);
      expect((await server.call('GET', `/api/recording/${rdp.id}/playback_available`, { token: vera })).status).toBe(
        404,
      );
      const nora = await server.login('nora@example.test', 'nora-password');
      expect((await server.call('GET', `/api/recording/${rdp.id}/video`, { token: nora })).status).toBe(403);
    } finally {
      await server.services.recordings.finish(rdp, 'closed');
      await server.services.recordings.finish(generic, 'closed');
    }
  });

  it('carries an rdp session without video when the host has no ffmpeg, and says why', async () => {
    const { id, talk } = await session(1000, undefined, noFfmpegDefinitionId);
    expect(talk.sent.length).toBeGreaterThan(0);
    expect(talk.received).toBe(talk.sent);
    await eventually(
      async () => other.output(),
      (o) => o.includes('ffmpeg was not found (/nonexistent/ffmpeg): this rdp session runs without video'),
    );
    await eventually(
      async () => (await server.services.repositories.recordings.find(id))?.endedOn ?? null,
      (ended) => ended !== null,
    );
    expect(await playback(id)).toEqual({ available: false, video_bytes: 0, content_type: null, live: false });
    expect((await server.call('GET', `/api/recording/${id}/video`, { token: admin })).status).toBe(404);
    // Never silently unrecorded: the session says it was not filmed, and why.
    const row = await server.services.repositories.recordings.find(id);
    expect(row?.videoState).toBe('not-filmed');
    expect(row?.videoNote).toMatch(/ffmpeg/);
  });

  it.skipIf(missing)(
    'records the desktop of an rdp session as it runs and serves it with ranges',
    async () => {
      // When the server first heard the agent say 'filming' (its first video bytes). ffmpeg's start
      // takes a few tenths of a second on a quiet machine and seconds on a loaded one, and the video
      // begins then: it is measured against the time filmed, not against the whole session.
      let filmingHeard: Promise<number> | undefined;
      const { id, talk } = await session(3000, (before) => {
        filmingHeard = (async () => {
          const rdp = (await eventually(latestRdp, (latest) => latest !== undefined && latest !== before))!;
          await eventually(
            async () => (await server.services.repositories.recordings.find(rdp))?.videoState ?? null,
            (state) => state !== null && state !== 'waiting',
          );
          return Date.now();
        })();
        // Awaited below; until then a rejection must not count as unhandled.
        filmingHeard.catch(() => undefined);
      });
      expect(talk.received).toBe(talk.sent);
      expect(talk.sent.length).toBeGreaterThan(100);
      const done = await eventually(
        () => playback(id),
        (p) => p.available && !p.live,
        20_000,
      ).catch((error: Error) => Promise.reject(new Error(`${error.message}\nagent: ${desk.output()}`)));
      expect(done).toMatchObject({ available: true, content_type: 'video/mp4', live: false });
      // The agent's last piece of video (final) can reach the server before the session's end is
      // written: on a loaded machine the video is whole a moment before the recording is finished.
      const row = (await eventually(
        () => server.services.repositories.recordings.find(id),
        (found) => (found?.endedOn ?? null) !== null,
      ))!;
      expect(row.hasVideo).toBe(true);
      expect(row.endedOn).not.toBeNull();
      const ranged = await fetch(`${server.url}/api/recording/${id}/video`, {
        headers: { 'authentication-token': admin, range: 'bytes=0-99' },
      });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${done.video_bytes}`);
      const head = Buffer.from(await ranged.arrayBuffer());
      expect(head.length).toBe(100);
      expect(head.subarray(4, 8).toString()).toBe('ftyp');
      const download = await fetch(`${server.url}/api/recording/${id}/video?download=true`, {
        headers: { 'authentication-token': admin },
      });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="session-${id}.mp4"; filename*=UTF-8''session-${id}.mp4`,
      );
      const file = path.join(tmp, `${id}.mp4`);
      fs.writeFileSync(file, Buffer.from(await download.arrayBuffer()));
      expect(fs.statSync(file).size).toBe(done.video_bytes);
      const probe = await ffprobe(file);
      const sessionSeconds = (row.endedOn!.getTime() - row.startedOn.getTime()) / 1000;
      const filmedSeconds = (row.endedOn!.getTime() - (await filmingHeard!)) / 1000;
      expect(probe).toMatchObject({ codec: 'h264', width: 320, height: 240 });
      // The video runs from ffmpeg's first frame to the session's end: never longer than the session,
      // and within 1.5 s of the time the agent was filming (the state is polled every 0.1 s).
      const why = `video ${probe.duration} s, session ${sessionSeconds} s, filmed ${filmedSeconds} s`;
      expect(probe.duration, why).toBeLessThanOrEqual(sessionSeconds + 1.5);
      expect(Math.abs(probe.duration - filmedSeconds), why).toBeLessThanOrEqual(1.5);
    },
    60_000,
  );

  it.skipIf(missing)(
    'keeps a playable video up to the last upload when the agent is killed mid-session',
    async () => {
      let killedAt = 0;
      // Kill the agent once the server holds the header and at least one more piece (a fragment).
      const killMidway = (before: string | undefined) =>
        void (async () => {
          const id = await eventually(latestRdp, (latest) => latest !== undefined && latest !== before);
          const first = await eventually(
            () => playback(id!),
            (p) => p.video_bytes > 0,
            15_000,
          );
          await eventually(
            () => playback(id!),
            (p) => p.video_bytes > first.video_bytes,
            15_000,
          );
          killedAt = Date.now();
          desk.child.kill('SIGKILL');
        })();
      const started = Date.now();
      const { id } = await session(20_000, killMidway);
      expect(killedAt, 'the agent was killed before the session ended').toBeGreaterThan(0);
      await desk.exited;
      const partial = await eventually(
        () => playback(id),
        (p) => p.available,
        20_000,
      ).catch((error: Error) => Promise.reject(new Error(`${error.message}\nagent: ${desk.output()}`)));
      expect(partial.video_bytes).toBeGreaterThan(0);
      const row = (await server.services.repositories.recordings.find(id))!;
      expect(row.videoFinal).toBe(false);
      const download = await fetch(`${server.url}/api/recording/${id}/video`, {
        headers: { 'authentication-token': admin },
      });
      const file = path.join(tmp, `${id}-partial.mp4`);
      fs.writeFileSync(file, Buffer.from(await download.arrayBuffer()));
      const probe = await ffprobe(file);
      expect(probe.codec).toBe('h264');
      // What went up before the kill plays; nothing after it exists.
      expect(probe.duration).toBeGreaterThan(0.4);
      expect(probe.duration).toBeLessThanOrEqual((killedAt - started) / 1000);
    },
    60_000,
  );
});
