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
import { readSelection } from '../test/x-display.js';
import { DESKTOP_CLIPBOARD_MAX_BYTES, DESKTOP_CLIPBOARD_TOO_LONG } from '@gatehouse/contracts';
import { VNC_NO_CLIPBOARD_ARGS, findProgram } from './desktop-session.js';

// xclip reads and sets the X selections (CI installs it with .ci/run).
// xwininfo (x11-utils) sees whether x11vnc made a selection window.
const missing = [...missingDesktopPrograms(), ...['xclip', 'xwininfo'].filter((p) => !findProgram(p))];
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`desktop clipboard tests skipped: ${missing.join(', ')} missing`);

const SIZE = { width: 800, height: 600 };
/** How long the desktop's copy may take to reach the browser (the relay reads it at once). */
const COPY_OUT_MS = 20_000;
/** How long the browser waits for a text that must never come. */
const NOTHING_MS = 8000;
/** Arabic, CJK, an emoji and Latin-1: RFB's cut text (Latin-1) would carry only "café". */
const UNICODE = 'مرحبا 你好 👋 café';
const NOT_IN = 'This desktop’s definition lets no text into the desktop: nothing was sent.';

/**
 * The gateway desktop's X display, where FreeRDP's clipboard channel meets the gateway's clipboard
 * relay: what the browser sends (a text frame) becomes its CLIPBOARD, which FreeRDP forwards to
 * the host; what the host copies FreeRDP puts there and the relay sends to the browser. The test
 * host (freerdp-shadow-cli) has no clipboard channel, so this display stands in for the host's
 * clipboard; FreeRDP's own clipboard channel is checked from its arguments.
 */
function gatewayDisplay(): { env: NodeJS.ProcessEnv; xfreerdpArgs: string[]; x11vncArgs: string[][] } {
  const programs = desktopChildren();
  const xvfb = programs.find((p) => p.comm === 'Xvfb');
  const xfreerdp = programs.find((p) => p.comm === 'xfreerdp');
  if (!xvfb || !xfreerdp) throw new Error('the desktop’s programs are not running');
  const args = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const xvfbArgs = args(xvfb.pid);
  return {
    env: { PATH: process.env.PATH, DISPLAY: xvfbArgs[1], XAUTHORITY: xvfbArgs[xvfbArgs.indexOf('-auth') + 1] },
    xfreerdpArgs: args(xfreerdp.pid),
    x11vncArgs: programs.filter((p) => p.comm === 'x11vnc').map((p) => args(p.pid)),
  };
}

/** Whether x11vnc's selection window (1x1 at +3+2, never mapped) exists on the gateway display. */
function hasSelectionWindow(env: NodeJS.ProcessEnv): boolean {
  const tree = execFileSync('xwininfo', ['-root', '-children'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  return / 1x1\+3\+2 /.test(tree.toString());
}

/** A selection's text on the gateway display ('' when nobody owns it; read without blocking the relay). */
const selection = readSelection;

/** The text of the next clipboard frame the browser receives, or undefined when none came in time. */
async function copiedText(client: DesktopClient, timeoutMs: number): Promise<string | undefined> {
  const frame = await client.clipboardFrame(timeoutMs);
  if (frame && !frame.clipboard) throw new Error(`not a copy: ${JSON.stringify(frame)}`);
  return frame?.clipboard?.text;
}

/** Nothing of the desktop's clipboard reaches this socket: no text frame, no RFB cut text either. */
async function nothingReaches(client: DesktopClient): Promise<void> {
  const [frame, cut] = await Promise.all([client.clipboardFrame(NOTHING_MS), client.serverCutText(NOTHING_MS)]);
  expect(frame).toBeUndefined();
  expect(cut).toBeUndefined();
}

const owners: ChildProcess[] = [];
/** Something on the desktop copies `text` (xclip owns CLIPBOARD until killed), as FreeRDP does for the host. */
function copyOnDesktop(env: NodeJS.ProcessEnv, text: string): void {
  const child = spawn('xclip', ['-quiet', '-i', '-selection', 'clipboard'], {
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end(text);
  owners.push(child);
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
    // x11vnc exchanges no clipboard whatever the policy: the text travels beside RFB, in UTF-8.
    for (const args of display.x11vncArgs) expect(args).toEqual(expect.arrayContaining([...VNC_NO_CLIPBOARD_ARGS]));
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
    return { client, display, settled, recordingId: String(answer.recording_id) };
  }

  const close = closeDesktop;

  it('clipboard off: the browser’s paste never reaches the desktop and the desktop’s copy never reaches the browser', async () => {
    const { client, display, settled } = await open('off', 101);
    // FreeRDP runs without its clipboard channel: nothing reaches the host's clipboard that way either.
    expect(display.xfreerdpArgs).toContain('-clipboard');
    expect(display.xfreerdpArgs).not.toContain('+clipboard');
    // A hostile browser sends the text anyway, beside RFB and through it: the gateway refuses it.
    client.clipboard('pasted-secret-off');
    client.cutText('pasted-secret-off');
    expect(await client.clipboardFrame(10_000)).toEqual({ clipboard_refused: NOT_IN, code: 'not-allowed' });
    await settled();
    expect(await selection(display.env, 'clipboard')).not.toContain('pasted-secret-off');
    expect(await selection(display.env, 'primary')).not.toContain('pasted-secret-off');
    copyOnDesktop(display.env, 'copied-secret-off');
    await eventually(
      async () => selection(display.env, 'clipboard'),
      (t) => t === 'copied-secret-off',
      5000,
    );
    await nothingReaches(client);
    await close(client);
  }, 150_000);

  it('clipboard both: text in full Unicode goes both ways unchanged, beside RFB; the recording says how much, never what', async () => {
    const { client, display, recordingId } = await open('both', 102);
    expect(display.xfreerdpArgs).toContain('+clipboard');
    // x11vnc owns no selection: it made no selection window.
    expect(hasSelectionWindow(display.env)).toBe(false);
    const pasted = `pasted-both ${UNICODE}`;
    client.clipboard(pasted);
    expect(
      await eventually(
        async () => selection(display.env, 'clipboard'),
        (t) => t === pasted,
        15_000,
      ),
    ).toBe(pasted);
    // The relay offers exactly text, with a TARGETS FreeRDP reads (type ATOM).
    expect((await selection(display.env, 'clipboard', 'TARGETS')).trim().split('\n').sort()).toEqual([
      'STRING',
      'TARGETS',
      'UTF8_STRING',
    ]);
    const copied = `copied-both ${UNICODE}`;
    copyOnDesktop(display.env, copied);
    expect(await copiedText(client, COPY_OUT_MS)).toBe(copied);
    // Nothing through RFB.
    expect(await client.serverCutText(1000)).toBeUndefined();
    await close(client);
    const row = await eventually(
      async () => rig.server.services.repositories.recordings.find(recordingId),
      (r) => !!r?.endedOn,
      20_000,
    );
    // The session's text record (JSON-escaped there) says how many bytes went each way.
    const said = fs.readFileSync(row!.storagePath, 'utf8');
    expect(said).toContain(`Clipboard: ${Buffer.byteLength(pasted)} bytes of text from the browser to the desktop`);
    expect(said).toContain(
      `Clipboard: ${Buffer.byteLength(copied)} bytes of text copied on the desktop sent to the browser`,
    );
    expect(said).not.toContain('pasted-both');
    expect(said).not.toContain('copied-both');
    expect(rig.log()).not.toContain('pasted-both');
    expect(rig.log()).not.toContain('copied-both');
  }, 150_000);

  it('clipboard both: a text over the bound or malformed is refused with its message, and the desktop goes on', async () => {
    const { client, display } = await open('both', 105);
    client.clipboard('é'.repeat(DESKTOP_CLIPBOARD_MAX_BYTES / 2 + 1));
    expect(await client.clipboardFrame(10_000)).toEqual({
      clipboard_refused: `The clipboard text was refused: ${DESKTOP_CLIPBOARD_TOO_LONG}`,
      code: 'too-long',
    });
    client.send({ clipboard: { text: 42 } });
    expect(await client.clipboardFrame(10_000)).toEqual({
      clipboard_refused: 'The clipboard text was refused: clipboard.text must be text.',
      code: 'malformed',
    });
    client.ws.send('{"clipboard": {"text": "cut sh');
    expect(await client.clipboardFrame(10_000)).toEqual({
      clipboard_refused: 'The clipboard text was not readable JSON: nothing was sent to the desktop.',
      code: 'malformed',
    });
    expect(await selection(display.env, 'clipboard')).toBe('');
    // Exactly at the bound it is taken, and the desktop still answers.
    const most = 'é'.repeat(DESKTOP_CLIPBOARD_MAX_BYTES / 2);
    client.clipboard(most);
    expect(
      await eventually(
        async () => selection(display.env, 'clipboard'),
        (t) => t === most,
        15_000,
      ),
    ).toBe(most);
    expect(client.ws.readyState).toBe(client.ws.OPEN);
    await close(client);
  }, 150_000);

  it('clipboard to-desktop: the browser may paste in, but the desktop’s copy never reaches the browser', async () => {
    const { client, display } = await open('to-desktop', 103);
    client.clipboard('pasted-in');
    expect(
      await eventually(
        async () => selection(display.env, 'clipboard'),
        (t) => t === 'pasted-in',
        15_000,
      ),
    ).toBe('pasted-in');
    copyOnDesktop(display.env, 'copied-out-secret');
    await nothingReaches(client);
    await close(client);
  }, 150_000);

  it('clipboard from-desktop: the desktop’s copy reaches the browser, but the browser’s paste never reaches the desktop', async () => {
    const { client, display, settled } = await open('from-desktop', 104);
    client.clipboard('pasted-in-secret');
    client.cutText('pasted-in-secret');
    expect(await client.clipboardFrame(10_000)).toEqual({ clipboard_refused: NOT_IN, code: 'not-allowed' });
    await settled();
    expect(await selection(display.env, 'clipboard')).not.toContain('pasted-in-secret');
    expect(await selection(display.env, 'primary')).not.toContain('pasted-in-secret');
    copyOnDesktop(display.env, 'copied-out');
    expect(await copiedText(client, COPY_OUT_MS)).toBe('copied-out');
    await close(client);
  }, 150_000);

  it('a watcher gets no clipboard, and its clipboard messages change nothing on the desktop', async () => {
    const { client, display, recordingId } = await open('both', 106);
    const { client: watcher, answer } = await openDesktop(rig.watchUrl(recordingId), { token: rig.admin });
    expect(answer).toMatchObject({ ready: true });
    await watcher.handshake();
    // The watcher sends a clipboard text beside RFB and through it: neither is taken.
    watcher.clipboard('watcher-secret');
    watcher.cutText('watcher-secret');
    // The user's paste after the watcher's arrives: the watcher's was not taken before it either.
    client.clipboard('user-paste');
    expect(
      await eventually(
        async () => selection(display.env, 'clipboard'),
        (t) => t === 'user-paste',
        15_000,
      ),
    ).toBe('user-paste');
    await new Promise((r) => setTimeout(r, 2000));
    expect(await selection(display.env, 'clipboard')).toBe('user-paste');
    expect(await selection(display.env, 'primary')).toBe('');
    // The desktop copies: its user reads it, the watcher nothing (no text frame, no RFB cut text).
    copyOnDesktop(display.env, 'copied-not-for-watchers');
    expect(await copiedText(client, COPY_OUT_MS)).toBe('copied-not-for-watchers');
    await nothingReaches(watcher);
    watcher.close();
    await close(client);
  }, 150_000);

  it('rdp_clipboard takes only its four values, and only on rdp definitions', async () => {
    const bad = await rig.server.call<{ message: string }>('PUT', `/api/tunneldefinition/${rig.definitionId}`, {
      token: rig.admin,
      body: { rdp_clipboard: 'sideways' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('rdp_clipboard must be both, to-desktop, from-desktop or off');
    const good = await rig.server.call('PUT', `/api/tunneldefinition/${rig.definitionId}`, {
      token: rig.admin,
      body: { rdp_clipboard: 'from-desktop' },
    });
    expect(good.status).toBe(200);
    const listed = await rig.server.call<{ rdp: { id: string; rdp_clipboard?: string }[] }>(
      'GET',
      '/api/tunneldefinition/all',
      { token: rig.admin },
    );
    expect(listed.body.rdp.find((d) => d.id === rig.definitionId)?.rdp_clipboard).toBe('from-desktop');
  });
});
