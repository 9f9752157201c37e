import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import {
  PLAIN_X_PROGRAMS,
  type XDisplay,
  missingPrograms,
  near,
  samplePixel,
  startXDisplay,
  waitForPort,
} from '../test/x-display.js';
import { ffprobe, startTunnel } from './video-fixtures.js';
import type { SignedVideoManifest } from './chain.js';
import { CUT_NOTE, videoPathOf } from './video.service.js';

const missing = missingPrograms(PLAIN_X_PROGRAMS);
if (missing.length > 0) console.warn(`plain X desktop tests skipped: missing ${missing.join(', ')}`);

/** The host's desktop colour: what the user's client must show and every recording must hold. */
const HOST_COLOUR = '#3366cc';
/** The colour the host's desktop takes before a second login (each recording holds its own login's screen). */
const LATER_COLOUR = '#cc7722';
/** The sweep runs every half second here and signs an abandoned video 2 s after its session ended (production: 30 s, 10 min). */
const SWEEP = { everyMs: 500, videoCutGraceMs: 2000 };

type Detail = {
  id: string;
  ended_on: string | null;
  end_reason: string | null;
  has_video: boolean;
  video_state: string | null;
  video_note: string | null;
  video_bytes: number;
};
type Playback = { available: boolean; video_bytes: number; content_type: string | null; live: boolean };
type Integrity = {
  status: string;
  message: string;
  video?: { status: string; message: string; bytes: number; pieces: number; cut: boolean };
};

/**
 * Issue 18, "a Linux host with … a plain X desktop gets usable, correct recordings for every login",
 * and "kill -9 of the agent mid-session leaves a playable video up to the cut", all real: the RDP
 * host is freerdp-shadow-cli sharing an Xvfb of one colour that admits only holders of its X
 * cookie; the agent (the built CLI) films it with `--capture-source :N` and that display's
 * XAUTHORITY; the user runs the real `gatehouse tunnel` and the real xfreerdp under an Xvfb of
 * their own; the server is the real one over HTTP.
 */
describe.skipIf(missing.length > 0).each(DATABASES)('a native RDP client on a plain X desktop on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let host: XDisplay;
  let screen: XDisplay;
  let agent: AgentProcess;
  /** An agent of the same host started without the display's cookie. */
  let cookieless: AgentProcess;
  let tunnelPort = 0;
  const children: ChildProcess[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-plain-x-'));

  const detail = async (id: string) =>
    (await server.call<Detail>('GET', `/api/recording/${id}/data`, { token: admin })).body;
  const playback = async (id: string) =>
    (await server.call<Playback>('GET', `/api/recording/${id}/playback_available`, { token: admin })).body;
  const verify = async (id: string) =>
    (await server.call<Integrity>('GET', `/api/recording/${id}/verify`, { token: admin })).body;
  const latestRdp = async () =>
    (
      await server.services.database.query<{ id: string }>(
        "SELECT id FROM recordings WHERE type = 'rdp' ORDER BY started_on DESC LIMIT 1",
      )
    )[0]?.id;
  /** The recording's video as the console downloads it, written to a file. */
  const download = async (id: string, name: string) => {
    const res = await fetch(`${server.url}/api/recording/${id}/video`, { headers: { 'authentication-token': admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    const file = path.join(tmp, `${name}.mp4`);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return file;
  };
  /** Paints the host's desktop one colour (as a user of the host would change it). */
  const paint = (colour: string) =>
    new Promise<void>((resolve, reject) =>
      execFile('xsetroot', ['-solid', colour], { env: host.env }, (error) =>
        error ? reject(new Error(`xsetroot failed: ${error.message}`)) : resolve(),
      ),
    );
  const withAgentLog = (error: Error) => Promise.reject(new Error(`${error.message}\nagent: ${agent.output()}`));

  /**
   * One login of the user's native client: xfreerdp to the tunnel's local port, until its window
   * on the user's screen shows the host's colour and the recording reports filming. Answers the
   * recording and how to log out.
   */
  const logIn = async (colour = HOST_COLOUR) => {
    const before = await latestRdp();
    const started = Date.now();
    const client = spawn(
      'xfreerdp',
      [
        `/v:127.0.0.1:${tunnelPort}`,
        '/cert:ignore',
        '/u:ines',
        '/p:any',
        '/size:640x480',
        '/bpp:24',
        '/log-level:WARN',
      ],
      { env: screen.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(client);
    let output = '';
    client.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    client.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    const exited = new Promise<void>((resolve) => client.once('exit', () => resolve()));
    // The user sees the host's desktop: xfreerdp's window on their own screen is the host's colour.
    await eventually(
      () =>
        samplePixel(`x11:${screen.display}`, { env: screen.env }).catch(() => [0, 0, 0] as [number, number, number]),
      (rgb) => near(rgb, colour),
      30_000,
    ).catch((error: Error) => Promise.reject(new Error(`${error.message}\nxfreerdp: ${output}`)));
    const id = (await eventually(latestRdp, (latest) => latest !== undefined && latest !== before))!;
    await eventually(
      () => detail(id),
      (d) => d.video_state === 'filming',
      20_000,
    ).catch(withAgentLog);
    const logOut = async () => {
      client.kill('SIGTERM');
      await exited;
    };
    return { id, started, client, exited, logOut };
  };

  /** Waits until the server holds at least `pieces` more fragments than it did (the video grows). */
  const videoGrows = async (id: string, more: number) => {
    let last = (await playback(id)).video_bytes;
    for (let i = 0; i < more; i += 1) {
      const seen = last;
      last = (
        await eventually(
          () => playback(id),
          (p) => p.video_bytes > seen,
          15_000,
        ).catch(withAgentLog)
      ).video_bytes;
    }
  };

  /** After the client left: the session ended, the video complete (final) and playable, of the host's colour. */
  const endedWithVideo = async (id: string, name: string, colour = HOST_COLOUR) => {
    const done = await eventually(
      () => playback(id),
      (p) => p.available && !p.live,
      30_000,
    ).catch(withAgentLog);
    expect(done).toMatchObject({ available: true, content_type: 'video/mp4' });
    const row = (await server.services.repositories.recordings.find(id))!;
    expect(row.endedOn).not.toBeNull();
    expect(row.hasVideo).toBe(true);
    expect(row.videoFinal).toBe(true);
    expect((row.videoManifest as SignedVideoManifest | null)?.end).toBe('final');
    const file = await download(id, name);
    expect(fs.statSync(file).size).toBe(done.video_bytes);
    const probe = await ffprobe(file);
    // recording_scale 0.5 of the host's 640x480.
    expect(probe).toMatchObject({ codec: 'h264', width: 320, height: 240 });
    const sessionSeconds = (row.endedOn!.getTime() - row.startedOn.getTime()) / 1000;
    expect(probe.duration).toBeGreaterThan(0.5);
    const all = await server.services.database.query(
      "SELECT id, started_on, ended_on, end_reason, video_bytes, video_state, video_at FROM recordings WHERE type = 'rdp' ORDER BY started_on",
    );
    expect(
      probe.duration,
      `video ${probe.duration} s, session ${sessionSeconds} s of ${id}: ${JSON.stringify(all)}\nagent: ${agent.output()}`,
    ).toBeLessThanOrEqual(sessionSeconds + 1);
    expect(near(await samplePixel(file, { at: probe.duration / 2 }), colour)).toBe(true);
    return { row, probe, file };
  };

  beforeAll(async () => {
    host = await startXDisplay({ width: 640, height: 480, colour: HOST_COLOUR });
    screen = await startXDisplay({ width: 800, height: 600 });
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const rdpPort = (free.address() as net.AddressInfo).port;
    await new Promise((r) => free.close(r));
    // The RDP server shares the host's display (no RDP authentication: the test is about filming).
    const shadow = spawn('freerdp-shadow-cli', [`/port:${rdpPort}`, '/bind-address:127.0.0.1', '-auth'], {
      env: host.env,
      stdio: 'ignore',
    });
    children.push(shadow);
    await waitForPort(rdpPort, shadow, 'freerdp-shadow-cli');

    server = await startTestServer(kind, {}, { sweep: SWEEP });
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'x', uses: 2 } })
    ).body.key;
    // As a real desktop's agent: the display named, its cookie through XAUTHORITY, no DISPLAY.
    agent = startAgent({
      server: server.url,
      key,
      hostname: 'x-desk-01',
      args: ['--capture-source', host.display],
      env: { XAUTHORITY: host.xauthority, DISPLAY: '' },
    });
    cookieless = startAgent({
      server: server.url,
      key,
      hostname: 'x-desk-02',
      args: ['--capture-source', host.display],
      env: { XAUTHORITY: path.join(tmp, 'no-such-authority'), DISPLAY: '' },
    });
    const agents = await eventually(
      async () =>
        (
          await server.call<{ agents: { id: string; hostname: string; connected: boolean }[] }>('GET', '/api/agent', {
            token: admin,
          })
        ).body.agents,
      (a) => a.filter((x) => x.connected).length === 2,
      30_000,
    );
    await server.createUser('ines@example.test', 'ines-password');
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    const ines = users.body.users.find((u) => u.email === 'ines@example.test')!.id;
    for (const [process, hostname, name] of [
      [agent, 'x-desk-01', 'plain desk'],
      [cookieless, 'x-desk-02', 'plain desk without cookie'],
    ] as const) {
      const agentId = agents.find((a) => a.hostname === hostname)!.id;
      await server.call('POST', `/api/agent/${agentId}/config`, {
        token: admin,
        body: { whitelist: [rdpPort], recording_enabled: true, recording_fps: 5, recording_scale: 0.5 },
      });
      await eventually(
        async () => fs.readFileSync(path.join(process.stateDir, 'config.json'), 'utf8'),
        (text) => text.includes(String(rdpPort)),
      );
      // The definition's default: an RDP session that cannot be filmed is refused.
      const definition = (
        await server.call<{ definition: { id: string; unfilmed_rdp: string } }>('POST', '/api/tunneldefinition/rdp', {
          token: admin,
          body: { name, host_id: agentId, port: rdpPort },
        })
      ).body.definition;
      expect(definition.unfilmed_rdp).toBe('refuse');
      await server.call('PUT', `/api/tunneldefinition/${definition.id}/users`, {
        token: admin,
        body: { users: [ines] },
      });
    }
    const tunnel = await startTunnel([
      'plain desk',
      '--server',
      server.url,
      '--email',
      'ines@example.test',
      '--password',
      'ines-password',
      '--local-port',
      '0',
    ]);
    children.push(tunnel.child);
    tunnelPort = tunnel.port;
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    agent?.child.kill('SIGKILL');
    cookieless?.child.kill('SIGKILL');
    await server?.stop();
    screen?.stop();
    host?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the host display admits only holders of its X cookie, as a real desktop does', async () => {
    const noCookie = { ...host.env, XAUTHORITY: path.join(tmp, 'none') };
    await expect(samplePixel(`x11:${host.display}`, { env: noCookie })).rejects.toThrow(/read no frame/);
    expect(near(await samplePixel(`x11:${host.display}`, { env: host.env }), HOST_COLOUR)).toBe(true);
  });

  it('films a login of the user’s own client, serves a playable video of the host’s desktop, and verifies it intact', async () => {
    const session = await logIn();
    expect((await detail(session.id)).video_state).toBe('filming');
    await videoGrows(session.id, 2);
    await session.logOut();
    const { probe } = await endedWithVideo(session.id, 'first');
    expect(probe.duration).toBeGreaterThan(1.5);
    const after = await detail(session.id);
    expect(after).toMatchObject({ has_video: true, end_reason: 'closed', video_state: 'stopped' });
    const integrity = await verify(session.id);
    expect(integrity.status, integrity.message).toBe('intact');
    expect(integrity.video).toMatchObject({ status: 'intact', cut: false, bytes: after.video_bytes });
    expect(integrity.video!.pieces).toBeGreaterThan(1);
    expect(integrity.video!.message).not.toContain('never completed');
  }, 90_000);

  it('gives each of two successive logins its own recording with its own video', async () => {
    const first = await logIn();
    await videoGrows(first.id, 1);
    await first.logOut();
    const a = await endedWithVideo(first.id, 'login-a');
    // The host's desktop changes between the logins: the second recording shows the new one.
    await paint(LATER_COLOUR);
    const second = await logIn(LATER_COLOUR);
    expect(second.id).not.toBe(first.id);
    await videoGrows(second.id, 1);
    await second.logOut();
    const b = await endedWithVideo(second.id, 'login-b', LATER_COLOUR);
    // Two videos, each of its own session: the second holds none of the first's screen.
    expect(b.row.startedOn.getTime()).toBeGreaterThanOrEqual(a.row.endedOn!.getTime());
    expect(near(await samplePixel(b.file), LATER_COLOUR)).toBe(true);
    expect(near(await samplePixel(a.file, { at: a.probe.duration - 0.2 }), HOST_COLOUR)).toBe(true);
    await paint(HOST_COLOUR);
    for (const id of [first.id, second.id]) {
      const integrity = await verify(id);
      expect(integrity.status, integrity.message).toBe('intact');
      expect(integrity.video).toMatchObject({ status: 'intact', cut: false });
    }
  }, 120_000);

  it('refuses the session, saying why, when the agent cannot open the display (no X cookie): never unfilmed', async () => {
    const tunnel = await startTunnel([
      'plain desk without cookie',
      '--server',
      server.url,
      '--email',
      'ines@example.test',
      '--password',
      'ines-password',
      '--local-port',
      '0',
    ]);
    children.push(tunnel.child);
    const before = await latestRdp();
    const client = spawn(
      'xfreerdp',
      [`/v:127.0.0.1:${tunnel.port}`, '/cert:ignore', '/u:ines', '/p:any', '/size:640x480', '/log-level:WARN'],
      { env: screen.env, stdio: 'ignore' },
    );
    children.push(client);
    const id = (await eventually(latestRdp, (latest) => latest !== undefined && latest !== before, 30_000))!;
    // ffmpeg is refused by the X server, tried again after 1, 2 and 4 s, then the capture fails.
    const refused = await eventually(
      () => detail(id),
      (d) => d.ended_on !== null,
      40_000,
    );
    client.kill('SIGKILL');
    expect(refused).toMatchObject({ end_reason: 'not-filmed', video_state: 'not-filmed', has_video: false });
    expect(refused.video_note).toContain(`ffmpeg could not film ${host.display}`);
    expect(refused.video_note).toContain('XAUTHORITY');
    await eventually(
      async () => tunnel.output(),
      (o) => o.includes('Tunnel closed: Refused, not filmed'),
    );
    expect(cookieless.output()).toContain('XAUTHORITY');
  }, 90_000);

  it('kill -9 of the agent mid-session: the session ends, the video plays up to the cut, is signed cut and verifies', async () => {
    const session = await logIn();
    // The server holds the header and a few fragments; then the agent dies without a word.
    await videoGrows(session.id, 2);
    const killedAt = Date.now();
    agent.child.kill('SIGKILL');
    await agent.exited;
    const ended = await eventually(
      () => detail(session.id),
      (d) => d.ended_on !== null,
      20_000,
    );
    expect(ended).toMatchObject({ has_video: true, end_reason: 'closed' });
    // The agent never said the capture stopped: until the sweep, it still reads filming.
    expect(ended.video_state).toBe('filming');
    // The client loses its desktop with the agent (it may try again: it is stopped either way).
    await session.logOut();

    // What arrived before the cut plays, shows the host's desktop, and nothing after the kill exists.
    const partial = await playback(session.id);
    expect(partial.available).toBe(true);
    const file = await download(session.id, 'cut');
    const probe = await ffprobe(file);
    expect(probe.codec).toBe('h264');
    expect(probe.duration).toBeGreaterThan(0.4);
    expect(probe.duration).toBeLessThanOrEqual((killedAt - session.started) / 1000);
    expect(near(await samplePixel(file), HOST_COLOUR)).toBe(true);

    // The recovery sweep signs what was committed as cut once the grace after the session's end passed.
    const row = await eventually(
      async () => (await server.services.repositories.recordings.find(session.id))!,
      (r) => r.videoManifest !== null,
      20_000,
    );
    const manifest = row.videoManifest as SignedVideoManifest;
    expect(manifest).toMatchObject({ end: 'cut', bytes: partial.video_bytes });
    expect(row.videoFinal).toBe(true);
    expect(new Date(manifest.signed_at).getTime() - row.endedOn!.getTime()).toBeGreaterThanOrEqual(
      SWEEP.videoCutGraceMs,
    );
    // Signed cut, the capture no longer reads filming, and says why.
    expect(await detail(session.id)).toMatchObject({ video_state: 'stopped', video_note: CUT_NOTE });
    const integrity = await verify(session.id);
    expect(integrity.status, integrity.message).toBe('intact');
    expect(integrity.video).toMatchObject({ status: 'intact', cut: true, bytes: partial.video_bytes });
    // What the console's integrity alert shows under the video's label.
    expect(integrity.video!.message).toContain('its upload never completed');

    // One changed byte in the stored video: tampered, naming the piece.
    const stored = videoPathOf(row.storagePath);
    const fd = fs.openSync(stored, 'r+');
    const at = Math.floor(partial.video_bytes / 2);
    const one = Buffer.alloc(1);
    fs.readSync(fd, one, 0, 1, at);
    fs.writeSync(fd, Buffer.from([one[0]! ^ 0x01]), 0, 1, at);
    fs.closeSync(fd);
    const tampered = await verify(session.id);
    expect(tampered.status).toBe('tampered');
    expect(tampered.video?.status).toBe('tampered');
    expect(tampered.message).toMatch(/video piece \d+ \(bytes \d+–\d+\) was changed/);
  }, 120_000);
});
