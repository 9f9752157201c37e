import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/agent-process.js';
import {
  type DesktopClient,
  type DesktopRig,
  closeDesktop,
  desktopChildren,
  missingDesktopPrograms,
  openDesktop,
  startDesktopRig,
} from '../test/desktop-rig.js';
import { findProgram } from './desktop-session.js';

// xclip reads and sets the X selections (CI installs it with .ci/run).
// xwininfo and xprop (x11-utils) see x11vnc's selection window and CUT_BUFFER0.
const missing = [...missingDesktopPrograms(), ...['xclip', 'xwininfo', 'xprop'].filter((p) => !findProgram(p))];
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`desktop clipboard tests skipped: ${missing.join(', ')} missing`);

const SIZE = { width: 800, height: 600 };
/**
 * x11vnc sends the display's selection to a viewer only from 15 s after it connected (its
 * sel_waittime), so the desktop's copy is looked for until then and long after: on a loaded
 * machine (CI with two test workers) x11vnc's selection polling lags by many seconds.
 */
const COPY_OUT_MS = 45_000;

/**
 * The gateway desktop's X display, where FreeRDP's clipboard channel meets x11vnc: what the
 * browser pastes lands in its selections and FreeRDP forwards it to the host; what the host copies
 * FreeRDP puts there and x11vnc sends to the browser. The test host (freerdp-shadow-cli) has no
 * clipboard channel, so this display stands in for the host's clipboard; FreeRDP's own clipboard
 * channel is checked from its arguments.
 */
function gatewayDisplay(): { env: NodeJS.ProcessEnv; xfreerdpArgs: string[] } {
  const programs = desktopChildren();
  const xvfb = programs.find((p) => p.comm === 'Xvfb');
  const xfreerdp = programs.find((p) => p.comm === 'xfreerdp');
  if (!xvfb || !xfreerdp) throw new Error('the desktop’s programs are not running');
  const args = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const xvfbArgs = args(xvfb.pid);
  return {
    env: { PATH: process.env.PATH, DISPLAY: xvfbArgs[1], XAUTHORITY: xvfbArgs[xvfbArgs.indexOf('-auth') + 1] },
    xfreerdpArgs: args(xfreerdp.pid),
  };
}

/**
 * x11vnc's selection window (1x1 at +3+2, never mapped) exists on the gateway display. x11vnc
 * creates it on the first pass of its X event checks, which on a loaded machine can come after the
 * browser has connected: a paste received before it exists takes no selection at all (seen with
 * -debug_sel: "xcut_receive: recv-ing it", then "created selwin", and no "Own CLIPBOARD").
 */
async function selectionWindow(env: NodeJS.ProcessEnv): Promise<void> {
  await eventually(
    async () => {
      try {
        return execFileSync('xwininfo', ['-root', '-children'], {
          env,
          stdio: ['ignore', 'pipe', 'ignore'],
        }).toString();
      } catch {
        return '';
      }
    },
    (tree) => / 1x1\+3\+2 /.test(tree),
    30_000,
  );
}

/**
 * CUT_BUFFER0 of the gateway display: x11vnc writes the browser's paste there in the same step as it
 * takes PRIMARY and CLIPBOARD with it, and it stays. The selections themselves do not: FreeRDP's
 * clipboard channel answers the host's format list by taking CLIPBOARD (and x11vnc then lets go of
 * both), so on a loaded machine a read of CLIPBOARD after that reached FreeRDP, whose host here
 * (freerdp-shadow-cli) has no clipboard to give, and read nothing.
 */
function cutBuffer(env: NodeJS.ProcessEnv): string {
  try {
    const out = execFileSync('xprop', ['-root', 'CUT_BUFFER0'], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString();
    return /= "(.*)"\s*$/.exec(out)?.[1] ?? '';
  } catch {
    return '';
  }
}

/** A selection's text on the gateway display ('' when nobody owns it). */
function selection(env: NodeJS.ProcessEnv, which: 'clipboard' | 'primary'): string {
  try {
    return execFileSync('xclip', ['-o', '-selection', which], { env, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  } catch {
    return '';
  }
}

/**
 * The next text the browser receives that is not empty, or undefined when none came in time. At
 * its 15 s mark x11vnc sends the display's CUT_BUFFER0 if nobody owns PRIMARY then: on a loaded
 * machine the desktop's copy can come after that mark, and that first ServerCutText is empty (the
 * browser's paste was dropped, or there was none). It carries nothing and is read past.
 */
async function nextCopiedText(client: DesktopClient, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await client.serverCutText(Math.max(0, deadline - Date.now()));
    if (text !== '') return text;
  }
}

const owners: ChildProcess[] = [];
/** Something on the desktop copies `text` (xclip owns both selections until killed). */
function copyOnDesktop(env: NodeJS.ProcessEnv, text: string): void {
  for (const which of ['clipboard', 'primary']) {
    const child = spawn('xclip', ['-quiet', '-i', '-selection', which], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end(text);
    owners.push(child);
  }
}

describe.skipIf(skip)('the rdp definition governs the desktop clipboard at the gateway', () => {
  let rig: DesktopRig;
  let cleo = '';

  beforeAll(async () => {
    expect(missing, 'programs the test needs').toEqual([]);
    rig = await startDesktopRig({ colour: '#3366cc', ...SIZE });
    await rig.server.createUser('cleo@example.test', 'cleo-password');
    const users = await rig.server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', {
      token: rig.admin,
    });
    await rig.server.call('PUT', `/api/tunneldefinition/${rig.definitionId}/users`, {
      token: rig.admin,
      body: { users: [users.body.users.find((u) => u.email === 'cleo@example.test')!.id] },
    });
    cleo = await rig.server.login('cleo@example.test', 'cleo-password');
  }, 120_000);
  afterEach(() => {
    for (const child of owners.splice(0)) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await rig?.stop();
  });

  /** Sets the definition's rdp_clipboard, opens a desktop and answers the client and the gateway display. */
  async function open(clipboard: string, pointerAt: number) {
    const set = await rig.server.call('PUT', `/api/tunneldefinition/${rig.definitionId}`, {
      token: rig.admin,
      body: { rdp_clipboard: clipboard },
    });
    expect(set.status).toBe(200);
    const { client, answer } = await openDesktop(rig.connectUrl(), {
      token: cleo,
      username: 'cleo',
      password: 'rdp-secret',
      ...SIZE,
    });
    expect(answer).toMatchObject({ ready: true, clipboard });
    await client.handshake();
    const display = gatewayDisplay();
    // With the clipboard off x11vnc runs -nosel and makes no selection window.
    if (clipboard !== 'off') await selectionWindow(display.env);
    /** Everything the browser sent before this has been handled by x11vnc once the host's pointer moved. */
    const settled = async () => {
      client.pointer(pointerAt, pointerAt);
      await eventually(
        async () => rig.host.pointer(),
        (p) => p.x === pointerAt && p.y === pointerAt,
        15_000,
      );
      await new Promise((r) => setTimeout(r, 1000));
    };
    return { client, display, settled };
  }

  const close = closeDesktop;

  it('clipboard off: the browser’s paste never reaches the desktop and the desktop’s copy never reaches the browser', async () => {
    const { client, display, settled } = await open('off', 101);
    // FreeRDP runs without its clipboard channel: nothing reaches the host's clipboard that way either.
    expect(display.xfreerdpArgs).toContain('-clipboard');
    expect(display.xfreerdpArgs).not.toContain('+clipboard');
    client.cutText('pasted-secret-off');
    await settled();
    expect(cutBuffer(display.env)).not.toContain('pasted-secret-off');
    expect(selection(display.env, 'clipboard')).not.toContain('pasted-secret-off');
    expect(selection(display.env, 'primary')).not.toContain('pasted-secret-off');
    copyOnDesktop(display.env, 'copied-secret-off');
    await eventually(
      async () => selection(display.env, 'clipboard'),
      (t) => t === 'copied-secret-off',
      5000,
    );
    expect(await client.serverCutText(COPY_OUT_MS)).toBeUndefined();
    await close(client);
  }, 150_000);

  it('clipboard both: the browser’s paste reaches the desktop and the desktop’s copy reaches the browser', async () => {
    const { client, display, settled } = await open('both', 102);
    expect(display.xfreerdpArgs).toContain('+clipboard');
    client.cutText('pasted-both');
    await settled();
    expect(
      await eventually(
        async () => cutBuffer(display.env),
        (t) => t === 'pasted-both',
        30_000,
      ),
    ).toBe('pasted-both');
    copyOnDesktop(display.env, 'copied-both');
    expect(await nextCopiedText(client, COPY_OUT_MS)).toBe('copied-both');
    await close(client);
  }, 150_000);

  it('clipboard to-desktop: the browser may paste in, but the desktop’s copy never reaches the browser', async () => {
    const { client, display, settled } = await open('to-desktop', 103);
    client.cutText('pasted-in');
    await settled();
    expect(
      await eventually(
        async () => cutBuffer(display.env),
        (t) => t === 'pasted-in',
        30_000,
      ),
    ).toBe('pasted-in');
    copyOnDesktop(display.env, 'copied-out-secret');
    expect(await client.serverCutText(COPY_OUT_MS)).toBeUndefined();
    await close(client);
  }, 150_000);

  it('clipboard from-desktop: the desktop’s copy reaches the browser, but the browser’s paste never reaches the desktop', async () => {
    const { client, display, settled } = await open('from-desktop', 104);
    client.cutText('pasted-in-secret');
    await settled();
    expect(cutBuffer(display.env)).not.toContain('pasted-in-secret');
    expect(selection(display.env, 'clipboard')).not.toContain('pasted-in-secret');
    expect(selection(display.env, 'primary')).not.toContain('pasted-in-secret');
    copyOnDesktop(display.env, 'copied-out');
    expect(await nextCopiedText(client, COPY_OUT_MS)).toBe('copied-out');
    await close(client);
  }, 150_000);

  it('rdp_clipboard takes only its four values, and only on rdp definitions', async () => {
    const bad = await rig.server.call<{ message: string }>('PUT', `/api/tunneldefinition/${rig.definitionId}`, {
      token: rig.admin,
      body: { rdp_clipboard: 'sideways' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('rdp_clipboard must be both, to-desktop, from-desktop or off');
    const listed = await rig.server.call<{ rdp: { id: string; rdp_clipboard?: string }[] }>(
      'GET',
      '/api/tunneldefinition/all',
      { token: rig.admin },
    );
    expect(listed.body.rdp.find((d) => d.id === rig.definitionId)?.rdp_clipboard).toBe('from-desktop');
  });
});
