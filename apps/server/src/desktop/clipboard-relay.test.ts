import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/agent-process.js';
import { type XDisplay, missingPrograms, readSelection, startXDisplay } from '../test/x-display.js';
import { ClipboardRelay, RELAY_MAX_BYTES, type RelayDirections } from './clipboard-relay.js';

const missing = missingPrograms(['Xvfb', 'xauth', 'xclip']);
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`clipboard relay tests skipped: ${missing.join(', ')} missing`);

type Selection = 'primary' | 'clipboard';
/** Arabic, CJK, an emoji and Latin-1. */
const UNICODE = 'مرحبا 你好 👋 café';

/**
 * The desktop's clipboard relay on a real X display (Xvfb with a cookie): it owns CLIPBOARD with
 * the browser's text and reads what another client (FreeRDP, here xclip) puts there, as its
 * policy allows.
 */
describe.skipIf(skip)('the desktop clipboard relay carries text to and from CLIPBOARD as its policy allows', () => {
  let x: XDisplay;
  let cookie: Buffer;
  const owners: ChildProcess[] = [];
  const relays: ClipboardRelay[] = [];
  const warnings: string[] = [];
  const copies: string[] = [];

  beforeAll(async () => {
    x = await startXDisplay({ width: 320, height: 240 });
    const listed = execFileSync('xauth', ['-f', x.xauthority, 'list'], { env: x.env }).toString();
    cookie = Buffer.from(/MIT-MAGIC-COOKIE-1\s+([0-9a-f]+)/.exec(listed)![1]!, 'hex');
  });
  afterEach(() => {
    for (const relay of relays.splice(0)) relay.close();
    for (const child of owners.splice(0)) child.kill('SIGKILL');
    warnings.splice(0);
    copies.splice(0);
  });
  afterAll(() => x?.stop());

  const start = async (directions: RelayDirections) => {
    const relay = await ClipboardRelay.start(
      Number(x.display.slice(1)),
      cookie,
      directions,
      (m) => warnings.push(m),
      (text) => copies.push(text),
    );
    relays.push(relay);
    return relay;
  };
  const copy = (which: Selection, text: string) => {
    const child = spawn('xclip', ['-quiet', '-i', '-selection', which], {
      env: x.env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin.end(text);
    owners.push(child);
  };
  const read = (which: Selection, target = 'UTF8_STRING') => readSelection(x.env, which, target);
  /** CLIPBOARD comes to read `text` (within 10 s). */
  const arrives = async (text: string) =>
    expect(
      await eventually(
        async () => read('clipboard'),
        (t) => t === text,
        10_000,
      ),
    ).toBe(text);
  /** The relay hands on `text` as the desktop's copy (within 10 s). */
  const copied = async (text: string) =>
    expect(
      await eventually(
        async () => copies.at(-1),
        (t) => t === text,
        10_000,
      ),
    ).toBe(text);

  it('both: the browser’s text becomes CLIPBOARD, offering exactly UTF8_STRING and STRING; a copy into CLIPBOARD is handed on, in full Unicode', async () => {
    const relay = await start({ toDesktop: true, fromDesktop: true });
    expect(relay.offer(`from the browser ${UNICODE}`)).toBe(true);
    await arrives(`from the browser ${UNICODE}`);
    // STRING is Latin-1 (ICCCM): what it cannot hold reads as '?' (and é, byte 0xe9, is no UTF-8 here).
    expect(await read('clipboard', 'STRING')).toBe('from the browser ????? ?? ? caf\ufffd');
    expect((await read('clipboard', 'TARGETS')).trim().split('\n').sort()).toEqual([
      'STRING',
      'TARGETS',
      'UTF8_STRING',
    ]);
    // Anything else (such as the file list xrdp-chansrv would take it for) is refused.
    expect(await read('clipboard', 'text/uri-list')).toBe('');
    // Its own ownership is no copy of the desktop's.
    expect(copies).toEqual([]);
    copy('clipboard', `from the host ${UNICODE}`);
    await copied(`from the host ${UNICODE}`);
    // PRIMARY is none of its business.
    copy('primary', 'primary text');
    await new Promise((r) => setTimeout(r, 1000));
    expect(copies).toEqual([`from the host ${UNICODE}`]);
    expect(warnings).toEqual([]);
  });

  it('a text longer than RELAY_MAX_BYTES is not relayed either way; the warning does not hold it', async () => {
    const relay = await start({ toDesktop: true, fromDesktop: true });
    expect(relay.offer('x'.repeat(RELAY_MAX_BYTES + 1))).toBe(false);
    expect(await read('clipboard')).toBe('');
    copy('clipboard', 'y'.repeat(RELAY_MAX_BYTES + 10));
    await eventually(
      async () => warnings.length,
      (n) => n > 0,
      10_000,
    );
    expect(warnings.join()).toContain(`longer than ${RELAY_MAX_BYTES} bytes`);
    expect(warnings.join()).not.toContain('yyy');
    expect(copies).toEqual([]);
  });

  it('to-desktop: the browser’s text becomes CLIPBOARD, but a copy there is never handed on', async () => {
    const relay = await start({ toDesktop: true, fromDesktop: false });
    copy('clipboard', 'secret');
    await new Promise((r) => setTimeout(r, 1500));
    expect(copies).toEqual([]);
    expect(relay.offer('allowed')).toBe(true);
    await arrives('allowed');
  });

  it('from-desktop: a copy is handed on, but the browser’s text never becomes CLIPBOARD', async () => {
    const relay = await start({ toDesktop: false, fromDesktop: true });
    expect(relay.offer('secret')).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(await read('clipboard')).toBe('');
    copy('clipboard', 'allowed');
    await copied('allowed');
  });
});
