import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/agent-process.js';
import {
  DesktopClient,
  type DesktopRig,
  missingDesktopPrograms,
  openDesktop,
  startDesktopRig,
} from '../test/desktop-rig.js';

const missing = missingDesktopPrograms();
// CI installs every program (.ci/run): there a missing one fails loudly. Elsewhere the suite says why it skips.
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`desktop watch tests skipped: ${missing.join(', ')} missing`);

const SIZE = { width: 800, height: 600 };

/** Opens the watch socket as the console does; answers the client and the server's first text answer. */
async function watch(rig: DesktopRig, recordingId: string, token: string) {
  const client = new DesktopClient(rig.watchUrl(recordingId));
  await client.opened();
  client.send({ token });
  return { client, answer: await client.text() };
}

// A watcher of a live gateway desktop sees it, and nothing it sends reaches the desktop.
describe.skipIf(skip)('watching a gateway desktop is view only', () => {
  let rig: DesktopRig;
  let zara = '';
  let yann = '';

  beforeAll(async () => {
    expect(missing, 'programs the desktop needs').toEqual([]);
    rig = await startDesktopRig({ colour: '#00ff00', ...SIZE });
    await rig.server.createUser('zara@example.test', 'zara-password');
    await rig.server.createUser('yann@example.test', 'yann-password');
    const users = await rig.server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', {
      token: rig.admin,
    });
    await rig.server.call('PUT', `/api/tunneldefinition/${rig.definitionId}/users`, {
      token: rig.admin,
      body: { users: [users.body.users.find((u) => u.email === 'zara@example.test')!.id] },
    });
    zara = await rig.server.login('zara@example.test', 'zara-password');
    yann = await rig.server.login('yann@example.test', 'yann-password');
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('a watcher gets the frames, but its pointer and keys never reach the desktop', async () => {
    const { client: user, answer } = await openDesktop(rig.connectUrl(), {
      token: zara,
      username: 'zara',
      password: 'rdp-secret-2',
      ...SIZE,
    });
    expect(answer).toMatchObject({ ready: true });
    const recordingId = answer.recording_id as string;
    await user.handshake();
    // The user's pointer reaches the host (the control): the pipeline carries input.
    user.pointer(100, 100);
    await eventually(
      async () => rig.host.pointer(),
      (p) => p.x === 100 && p.y === 100,
      15_000,
    );

    const { client: watcher, answer: watching } = await watch(rig, recordingId, rig.admin);
    expect(watching).toEqual({ ready: true, ...SIZE });
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
      watcher.key(0x61); // 'a'
    }
    const click = Buffer.from([5, 1, 2, 0x58, 1, 0x90]); // button 1 down at (600, 400)
    watcher.ws.send(click);
    await new Promise((r) => setTimeout(r, 2500));
    expect(rig.host.pointer()).toEqual({ x: 100, y: 100 });
    // The user's input still goes through, after the watcher's.
    user.pointer(150, 120);
    await eventually(
      async () => rig.host.pointer(),
      (p) => p.x === 150 && p.y === 120,
      15_000,
    );
    // The desktop ends: the watcher's socket closes with it.
    user.close();
    expect((await watcher.closed).code).toBeGreaterThanOrEqual(1000);
  }, 120_000);

  it('refuses a watcher without the right to watch (4403) and a missing token (4401)', async () => {
    const { client: user, answer } = await openDesktop(rig.connectUrl(), {
      token: zara,
      username: 'zara',
      password: 'rdp-secret-3',
      ...SIZE,
    });
    expect(answer).toMatchObject({ ready: true });
    const recordingId = answer.recording_id as string;
    const refused = await watch(rig, recordingId, yann);
    expect(refused.answer.error).toBeTruthy();
    expect((await refused.client.closed).code).toBe(4403);
    const unsigned = await watch(rig, recordingId, 'not-a-token');
    expect((await unsigned.client.closed).code).toBe(4401);
    user.close();
    await user.closed;
  }, 60_000);
});
