import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoPathOf } from '../recordings/video.service.js';
import { eventually } from '../test/agent-process.js';
import {
  DesktopClient,
  type DesktopRig,
  missingDesktopPrograms,
  openDesktop,
  startDesktopRig,
} from '../test/desktop-rig.js';

const missing = missingDesktopPrograms();
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`desktop resize tests skipped: ${missing.join(', ')} missing`);

const ORANGE: [number, number, number] = [255, 128, 0];
const HOST = { width: 1024, height: 768 };
/** The browser's screen, which the hello tells: the gateway's X screen (and the film) is this large. */
const SCREEN = { width: 1440, height: 900 };

/** The size a desktop client was last told (read after a frame, so a DesktopSize has been taken). */
async function shown(client: DesktopClient): Promise<{ width: number; height: number; sizes: unknown[] }> {
  await client.pixel(10, 10);
  return { width: client.width, height: client.height, sizes: client.sizes };
}

function near(actual: [number, number, number], expected: [number, number, number], tolerance: number): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);
}

/** The size and the colour at (x, y) of an MP4's last frame, decoded by ffmpeg. */
function lastFrame(file: string, x: number, y: number): { width: number; height: number; colour: number[] } {
  const probe = execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file],
  ])
    .toString()
    .trim()
    .split(',')
    .map(Number);
  const raw = execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-i', file],
    ...['-vf', `format=rgb24,crop=1:1:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
  ]);
  return { width: probe[0]!, height: probe[1]!, colour: [raw.at(-3)!, raw.at(-2)!, raw.at(-1)!] };
}

// The browser's area changes size: the desktop follows (RFB DesktopSize), bounded and rate-limited,
// and the recording, which films the whole screen the desktop lives in, still plays.
describe.skipIf(skip)('a browser desktop follows the browser’s area, and its watchers with it', () => {
  let rig: DesktopRig;

  beforeAll(async () => {
    expect(missing, 'programs the desktop needs').toEqual([]);
    rig = await startDesktopRig({ colour: '#ff8000', ...HOST });
    await rig.server.createUser('rita@example.test', 'rita-password');
    const users = await rig.server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', {
      token: rig.admin,
    });
    await rig.server.call('PUT', `/api/tunneldefinition/${rig.definitionId}/users`, {
      token: rig.admin,
      body: { users: [users.body.users.find((u) => u.email === 'rita@example.test')!.id] },
    });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('a resize request gives the browser the new size, bounded, and the picture and the recording stay whole', async () => {
    const rita = await rig.server.login('rita@example.test', 'rita-password');
    const { client, answer } = await openDesktop(rig.connectUrl(), {
      token: rita,
      username: 'rita',
      password: 'rdp-secret',
      // The host's own size: it takes it (freerdp-shadow keeps its size; a host that does not take
      // the first size is not resized at all, the next test).
      ...HOST,
      screen: SCREEN,
    });
    expect(answer).toMatchObject({ ready: true, ...HOST });
    const recordingId = answer.recording_id as string;
    expect(await client.handshake({ desktopSize: true })).toEqual(HOST);
    expect(near(await client.pixel(400, 300), ORANGE, 8)).toBe(true);
    // A watcher follows the same desktop.
    const watcher = new DesktopClient(rig.watchUrl(recordingId));
    await watcher.opened();
    watcher.send({ token: rig.admin });
    expect(await watcher.text()).toMatchObject({ ready: true, ...HOST });
    expect(await watcher.handshake({ desktopSize: true })).toEqual(HOST);

    // The area changes: the browser is told the new size, and the host's picture is still there.
    // (A new x11vnc may miss a command in its first moments; the gateway sends it again after 2 s
    // and 5 s, which a loaded machine can stretch.)
    client.send({ resize: { width: 1000, height: 700 } });
    await eventually(
      () => shown(client),
      (now) => now.width === 1000 && now.height === 700,
      30_000,
    );
    expect(client.sizes.at(-1)).toEqual({ width: 1000, height: 700 });
    expect(near(await client.pixel(500, 350), ORANGE, 8)).toBe(true);
    await eventually(
      () => shown(watcher),
      (now) => now.width === 1000 && now.height === 700,
      15_000,
    );
    watcher.close();

    // Too small is raised to 640x480; a burst of requests is applied as its last one, not one by one.
    const before = client.sizes.length;
    for (const [w, h] of [
      [900, 650],
      [910, 660],
      [920, 670],
      [100, 100],
    ])
      client.send({ resize: { width: w, height: h } });
    await eventually(
      () => shown(client),
      (now) => now.width === 640 && now.height === 480,
      15_000,
    );
    expect(client.sizes.length - before).toBeLessThanOrEqual(2);
    // Beyond the browser's screen, which the desktop's screen was made as large as: bounded to it. Nonsense is ignored (and the socket stays).
    client.send({ resize: { width: 99_999, height: 1 } });
    client.send({ resize: 'big' });
    client.ws.send('not json');
    client.send({ resize: { width: 4000, height: 2000 } });
    await eventually(
      () => shown(client),
      (now) => now.width === SCREEN.width && now.height === SCREEN.height,
      15_000,
    );
    expect(near(await client.pixel(300, 300), ORANGE, 8)).toBe(true);

    await new Promise((r) => setTimeout(r, 2000));
    client.close();
    await client.closed;
    const row = await eventually(
      async () => rig.server.services.repositories.recordings.find(recordingId),
      (r) => !!r?.endedOn && (r.videoBytes ?? 0) > 0,
      20_000,
    );
    // The session's text record says which part of the screen the desktop took, and when.
    const cast = fs.readFileSync(row!.storagePath, 'utf8');
    expect(cast).toContain('Desktop resized to 1000x700');
    expect(cast).toContain(`Desktop resized to ${SCREEN.width}x${SCREEN.height}`);
    // One video of the whole screen, as large as the browser's (not the 2560x1600 default), decodable
    // to its last frame, showing the host.
    const frame = lastFrame(videoPathOf(row!.storagePath), 200, 200);
    expect([frame.width, frame.height]).toEqual([SCREEN.width, SCREEN.height]);
    expect(near(frame.colour as [number, number, number], ORANGE, 40), `filmed ${frame.colour.join(',')}`).toBe(true);
    const verify = await rig.server.call<{ video?: { ok?: boolean } }>('GET', `/api/recording/${recordingId}/verify`, {
      token: rig.admin,
    });
    expect(verify.status).toBe(200);
  }, 120_000);

  it('a host that keeps its own size is shown whole, never cropped, and is not resized', async () => {
    const rita = await rig.server.login('rita@example.test', 'rita-password');
    // A phone-sized area: smaller than the host's fixed 1024x768.
    const { client, answer } = await openDesktop(rig.connectUrl(), {
      token: rita,
      username: 'rita',
      password: 'rdp-secret',
      width: 640,
      height: 480,
      screen: { width: 390, height: 844 },
    });
    // The desktop is the host's whole picture (the browser scales it), its far corner included.
    expect(answer).toMatchObject({ ready: true, ...HOST });
    expect(await client.handshake({ desktopSize: true })).toEqual(HOST);
    expect(near(await client.pixel(HOST.width - 2, HOST.height - 2), ORANGE, 8)).toBe(true);
    // A resize would crop it or add black: it is not applied.
    client.send({ resize: { width: 700, height: 500 } });
    await new Promise((r) => setTimeout(r, 2500));
    expect([client.width, client.height]).toEqual([HOST.width, HOST.height]);
    expect(near(await client.pixel(HOST.width - 2, HOST.height - 2), ORANGE, 8)).toBe(true);
    client.close();
    await client.closed;
  }, 60_000);
});
