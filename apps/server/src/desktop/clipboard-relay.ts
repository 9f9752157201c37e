import { DESKTOP_CLIPBOARD_MAX_BYTES } from '@gatehouse/contracts';
import { type X11Connection, openX11 } from './x11-probe.js';

/**
 * The browser desktop's clipboard relay, a small X client on the gateway's display that owns and
 * reads FreeRDP's CLIPBOARD for the browser (docs/deploy/desktop.md, Clipboard). The text travels
 * between the browser and the server outside RFB, in UTF-8 (text frames on the desktop's socket):
 * x11vnc's cut text is Latin-1 only (RFB; x11vnc 0.9.16 has no extended clipboard), so x11vnc
 * exchanges no clipboard at all.
 *
 * - Browser to host: offer() makes the relay own CLIPBOARD with the text, offering exactly
 *   UTF8_STRING and STRING with a TARGETS of type ATOM. FreeRDP 2.11 reads that TARGETS and
 *   announces just text to the host; an owner that answers TARGETS otherwise (x11vnc answers with a
 *   property of type TARGETS, src/selection.c) leaves the host with FreeRDP's full list,
 *   FileGroupDescriptorW in it, and xrdp-chansrv 0.9.21 then turns any text request into a file
 *   request (sesman/chansrv/clipboard.c, clipboard_event_selection_request): an empty clipboard.
 * - Host to browser: when FreeRDP takes CLIPBOARD (the host copied), the relay reads it as
 *   UTF8_STRING, which FreeRDP asks the host for as CF_UNICODETEXT (xrdp-chansrv answers nothing
 *   else), and hands it to `copied`.
 *
 * Each direction runs only when the policy allows it. Text only; the text is never logged.
 */

/** Which ways the relay carries text: offer() toward the host, `copied` toward the browser. */
export interface RelayDirections {
  toDesktop: boolean;
  fromDesktop: boolean;
}

/**
 * The most text carried one way at a time, in bytes of UTF-8: it is handed over in one X request
 * (at most 262140 bytes without BIG-REQUESTS; the relay does not do INCR transfers).
 */
export const RELAY_MAX_BYTES = DESKTOP_CLIPBOARD_MAX_BYTES;
/** How long the owner of a selection may take to hand its text over. */
const CONVERT_TIMEOUT_MS = 10_000;

const XA_ATOM = 4;
const XA_STRING = 31;

/** An X request: opcode, the data byte, and 4-byte aligned body words. */
function request(opcode: number, data: number, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt8(opcode, 0);
  head.writeUInt8(data, 1);
  head.writeUInt16LE((4 + body.length) / 4, 2);
  return Buffer.concat([head, body]);
}

function words(...values: number[]): Buffer {
  const body = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => body.writeUInt32LE(v >>> 0, 4 * i));
  return body;
}

function padTo4(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
}

async function internAtom(x: X11Connection, name: string): Promise<number> {
  // InternAtom (only-if-exists false): name length (2 bytes, 2 unused), the name; the atom at 8.
  const bytes = Buffer.from(name, 'latin1');
  return (await x.ask(request(16, 0, Buffer.concat([words(bytes.length), padTo4(bytes)])))).readUInt32LE(8);
}

/** Latin-1 for STRING (ICCCM): other characters as '?'; UTF8_STRING carries them all. */
function latin1(text: string): Buffer {
  return Buffer.from(text.replace(/[\u0100-\u{10ffff}]/gu, '?'), 'latin1');
}

export class ClipboardRelay {
  private window = 0;
  private atoms = { clipboard: 0, targets: 0, utf8: 0, property: 0 };
  private fixesEvent = -1;
  /** The text this relay offers on each selection it owns. */
  private readonly offered = new Map<number, string>();
  /** The conversion in progress (one at a time), answered by a SelectionNotify. */
  private converting: { selection: number; target: number; resolve: (property: number) => void } | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** A new owner of CLIPBOARD waits to be read. */
  private waiting = false;
  private closing = false;

  private constructor(
    private readonly x: X11Connection,
    private readonly directions: RelayDirections,
    private readonly warn: (message: string) => void,
    private readonly copied: (text: string) => void,
  ) {}

  /**
   * Connects to the display and starts relaying; the display must have XFIXES (Xvfb has). `copied`
   * receives the text of each copy the host makes (only when the policy lets text out).
   */
  static async start(
    display: number,
    cookie: Buffer,
    directions: RelayDirections,
    warn: (message: string) => void,
    copied: (text: string) => void,
  ): Promise<ClipboardRelay> {
    // Events reach the relay once it exists (none come before it asked for them).
    const events: { to?: ClipboardRelay } = {};
    const x = await openX11(display, cookie, (event) => events.to?.onEvent(event));
    const relay = new ClipboardRelay(x, directions, warn, copied);
    events.to = relay;
    try {
      await relay.setUp();
    } catch (error) {
      x.close();
      throw error;
    }
    return relay;
  }

  private async setUp(): Promise<void> {
    const { x } = this;
    const [clipboard, targets, utf8, property] = await Promise.all(
      ['CLIPBOARD', 'TARGETS', 'UTF8_STRING', 'GH_CLIPBOARD_RELAY'].map((n) => internAtom(x, n)),
    );
    this.atoms = { clipboard: clipboard!, targets: targets!, utf8: utf8!, property: property! };
    // A 1x1 input-only window, never mapped, owns the selections and receives their text.
    this.window = x.idBase | (1 & x.idMask);
    x.send(request(1, 0, words(this.window, x.root, 0, (1 << 16) | 1, 2 << 16, 0, 0)));
    // QueryExtension XFIXES: its major opcode and first event.
    const name = Buffer.from('XFIXES');
    const query = Buffer.concat([words(name.length), padTo4(name)]);
    const fixes = await x.ask(request(98, 0, query));
    if (fixes[8] !== 1) throw new Error('the display has no XFIXES');
    const major = fixes[9]!;
    this.fixesEvent = fixes[10]!;
    // XFixesQueryVersion 5.0, then SelectSelectionInput (set-owner events) on CLIPBOARD when the
    // policy lets text out: FreeRDP takes it when the host copied.
    await x.ask(request(major, 0, words(5, 0)));
    if (this.directions.fromDesktop) x.send(request(major, 2, words(this.window, this.atoms.clipboard, 1)));
    // A round trip: the window and the event selections are in place (or their error seen).
    await x.ask(request(43, 0, Buffer.alloc(0)));
  }

  private onEvent(event: Buffer): void {
    const code = event[0]! & 0x7f;
    if (code === this.fixesEvent && event[1] === 0) {
      // XFixesSelectionNotify (SetSelectionOwner): owner at 8, selection at 12.
      const owner = event.readUInt32LE(8);
      const selection = event.readUInt32LE(12);
      if (owner !== this.window && owner !== 0 && selection === this.atoms.clipboard) this.readLater();
    } else if (code === 30) {
      this.answer(event);
    } else if (code === 31) {
      // SelectionNotify for our conversion (selection at 12, target at 16): property at 20 (0: refused).
      const converting = this.converting;
      if (
        !converting ||
        event.readUInt32LE(12) !== converting.selection ||
        event.readUInt32LE(16) !== converting.target
      )
        return;
      this.converting = undefined;
      converting.resolve(event.readUInt32LE(20));
    } else if (code === 29) {
      // SelectionClear: another program owns it now.
      this.offered.delete(event.readUInt32LE(12));
    }
  }

  /**
   * A new owner took CLIPBOARD: its text is read in turn. While a read waits its turn no other is
   * queued (the latest owner is read then), so a host announcing copies without end queues nothing
   * more than one read.
   */
  private readLater(): void {
    if (this.waiting) return;
    this.waiting = true;
    this.queue = this.queue
      .then(() => {
        this.waiting = false;
        return this.readCopy();
      })
      .catch((error: unknown) => {
        if (!this.closing) this.warn(`the desktop's copy did not reach the browser: ${(error as Error).message}`);
      });
  }

  /** Reads the host's copy (FreeRDP's CLIPBOARD, as UTF8_STRING: CF_UNICODETEXT) and hands it on. */
  private async readCopy(): Promise<void> {
    if (this.closing || !this.directions.fromDesktop) return;
    const data = await this.convert(this.atoms.clipboard, this.atoms.utf8);
    if (data === undefined || data.length === 0 || this.closing) return;
    this.copied(data.toString('utf8'));
  }

  /**
   * The browser's text becomes the display's CLIPBOARD (FreeRDP then announces it to the host).
   * Answers false, changing nothing, when the policy lets no text in or the text is too long.
   */
  offer(text: string): boolean {
    if (this.closing || !this.directions.toDesktop || Buffer.byteLength(text) > RELAY_MAX_BYTES) return false;
    this.offered.set(this.atoms.clipboard, text);
    // SetSelectionOwner(CLIPBOARD, our window, CurrentTime).
    this.x.send(request(22, 0, words(this.window, this.atoms.clipboard, 0)));
    return true;
  }

  /** Asks the owner of `selection` for it as `target`; answers the bytes, or undefined when refused. */
  private async convert(selection: number, target: number): Promise<Buffer | undefined> {
    const { x } = this;
    let timer: NodeJS.Timeout | undefined;
    const property = await new Promise<number>((resolve) => {
      this.converting = { selection, target, resolve };
      timer = setTimeout(() => {
        this.converting = undefined;
        resolve(0);
      }, CONVERT_TIMEOUT_MS);
      x.send(request(24, 0, words(this.window, selection, target, this.atoms.property, 0)));
    });
    clearTimeout(timer);
    if (property === 0) return undefined;
    // GetProperty (delete), any type, up to a little more than the most relayed.
    const reply = await x.ask(request(20, 1, words(this.window, property, 0, 0, Math.ceil((RELAY_MAX_BYTES + 4) / 4))));
    const format = reply[1]!;
    const type = reply.readUInt32LE(8);
    const after = reply.readUInt32LE(12);
    const length = reply.readUInt32LE(16) * (format / 8);
    if (format !== 8 || (type !== XA_STRING && type !== this.atoms.utf8)) return undefined;
    if (after > 0) throw new Error(`the text is longer than ${RELAY_MAX_BYTES} bytes`);
    return Buffer.from(reply.subarray(32, 32 + length));
  }

  /** A SelectionRequest for a selection this relay owns: TARGETS, UTF8_STRING or STRING, else refused. */
  private answer(event: Buffer): void {
    const time = event.readUInt32LE(4);
    const requestor = event.readUInt32LE(12);
    const selection = event.readUInt32LE(16);
    const target = event.readUInt32LE(20);
    let property = event.readUInt32LE(24) || target;
    const text = this.offered.get(selection);
    const change = (type: number, format: 8 | 32, data: Buffer) =>
      this.x.send(
        request(
          18,
          0,
          Buffer.concat([words(requestor, property, type, format, data.length / (format / 8)), padTo4(data)]),
        ),
      );
    if (text === undefined) property = 0;
    else if (target === this.atoms.targets) change(XA_ATOM, 32, words(this.atoms.targets, this.atoms.utf8, XA_STRING));
    else if (target === this.atoms.utf8) change(this.atoms.utf8, 8, Buffer.from(text, 'utf8'));
    else if (target === XA_STRING) change(XA_STRING, 8, latin1(text));
    else property = 0;
    // SendEvent SelectionNotify (31) to the requestor: time, requestor, selection, target, property.
    const notify = Buffer.alloc(32);
    notify.writeUInt8(31, 0);
    notify.writeUInt32LE(time, 4);
    notify.writeUInt32LE(requestor, 8);
    notify.writeUInt32LE(selection, 12);
    notify.writeUInt32LE(target, 16);
    notify.writeUInt32LE(property, 20);
    this.x.send(request(25, 0, Buffer.concat([words(requestor, 0), notify])));
  }

  /** Stops relaying (the selections it owned are let go with its connection). */
  close(): void {
    this.closing = true;
    this.converting?.resolve(0);
    this.x.close();
  }
}
