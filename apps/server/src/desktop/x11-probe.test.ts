import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/agent-process.js';
import { killLeavingNothing } from '../test/desktop-rig.js';
import { VNC_NO_CLIPBOARD_ARGS, findProgram } from './desktop-session.js';
import { countTopLevelWindows, hasSelectionWindow } from './x11-probe.js';

const missing = ['Xvfb', 'x11vnc', 'xauth'].filter((p) => !findProgram(p));
// CI installs them: there the test must run, never skip.
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`x11-probe tests skipped (${missing.join(', ')} missing); CI runs them`);

// A private X display like a gateway desktop's (Xvfb with a cookie), probed over its unix socket.
describe.skipIf(skip)('the X display probe', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-x11probe-'));
  const auth = path.join(dir, 'auth');
  const cookie = randomBytes(16);
  const display = 700 + Math.floor(Math.random() * 250);
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    execFileSync('xauth', ['-f', auth, 'add', `:${display}`, '.', cookie.toString('hex')]);
    children.push(spawn('Xvfb', [`:${display}`, '-screen', '0', '640x480x24', '-nolisten', 'tcp', '-auth', auth]));
    await eventually(
      async () => countTopLevelWindows(display, cookie).catch(() => -1),
      (n) => n === 0,
      15_000,
    );
  });

  afterAll(async () => {
    await Promise.all(children.map(killLeavingNothing));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a connection without the display’s cookie', async () => {
    await expect(countTopLevelWindows(display, randomBytes(16))).rejects.toThrow();
  });

  it('sees x11vnc’s selection window only once x11vnc made it, and the gateway’s x11vnc (no clipboard) makes none', async () => {
    expect(await hasSelectionWindow(display, cookie)).toBe(false);
    const env = { PATH: process.env.PATH, DISPLAY: `:${display}`, XAUTHORITY: auth };
    const x11vnc = (socket: string, extra: readonly string[]) =>
      spawn(
        'x11vnc',
        [
          ...['-display', `:${display}`, '-unixsock', path.join(dir, socket), '-rfbport', '0', '-rfbportv6', '-1'],
          ...['-no6', '-noipv6', '-nopw', '-quiet', ...extra],
        ],
        { env: { ...env, X11VNC_AVOID_WINDOWS: 'never' }, stdio: 'ignore' },
      );
    // As the gateway runs it: no clipboard exchange at all, so no window to own selections.
    children.push(x11vnc('quiet.sock', VNC_NO_CLIPBOARD_ARGS));
    await eventually(async () => fs.existsSync(path.join(dir, 'quiet.sock')), Boolean, 20_000);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await hasSelectionWindow(display, cookie)).toBe(false);
    // x11vnc by default makes one within its first second (the quiet one stays: with its last client
    // gone, Xvfb would reset).
    children.push(x11vnc('vnc.sock', []));
    expect(await eventually(async () => hasSelectionWindow(display, cookie), Boolean, 20_000)).toBe(true);
    expect(await countTopLevelWindows(display, cookie)).toBeGreaterThanOrEqual(1);
  }, 40_000);
});
