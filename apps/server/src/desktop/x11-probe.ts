import net from 'node:net';

/** How long one probe may take before it counts as "no answer". */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Asks an X display (over its unix socket, with its MIT-MAGIC-COOKIE-1) how many top-level
 * windows its root has. The gateway's display has no window manager: the only top-level window
 * is FreeRDP's, which FreeRDP creates once the RDP connection is up (after the login). A tiny
 * X11 client of two requests, so the server needs no x11-utils just for this.
 */
export async function countTopLevelWindows(display: number, cookie: Buffer): Promise<number> {
  const x = await openX11(display, cookie);
  let timer: NodeJS.Timeout | undefined;
  try {
    const query = Buffer.alloc(8);
    query.writeUInt8(15, 0); // QueryTree
    query.writeUInt16LE(2, 2);
    query.writeUInt32LE(x.root, 4);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`display :${display} did not answer`)), PROBE_TIMEOUT_MS);
    });
    const tree = await Promise.race([x.ask(query), timeout]);
    return tree.readUInt16LE(16);
  } finally {
    clearTimeout(timer);
    x.close();
  }
}

function padded(length: number): number {
  return (length + 3) & ~3;
}

function pad(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc(padded(data.length) - data.length)]);
}

/** A minimal X11 connection: the root window, requests (replies and errors matched by sequence number) and events. */
export interface X11Connection {
  root: number;
  /** The first resource id this connection may give its windows (and the bits it may use above it). */
  idBase: number;
  idMask: number;
  /** Sends a request that has a reply; answers the reply (32 bytes and any extra), or rejects on an X error. */
  ask(request: Buffer): Promise<Buffer>;
  /** Sends a request without a reply (an error it causes is ignored). */
  send(request: Buffer): void;
  close(): void;
  /** Settles when the connection ended (closed, or the display went away). */
  closed: Promise<void>;
}

/**
 * Connects to an X display over its unix socket with its MIT-MAGIC-COOKIE-1. `onEvent` receives each
 * event (32 bytes, the send-event bit cleared from its code).
 */
export function openX11(display: number, cookie: Buffer, onEvent?: (event: Buffer) => void): Promise<X11Connection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(`/tmp/.X11-unix/X${display}`);
    let buffer = Buffer.alloc(0);
    let connected: X11Connection | undefined;
    let sequence = 0;
    const waiting = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();
    const timer = setTimeout(() => fail(new Error(`display :${display} did not answer`)), PROBE_TIMEOUT_MS);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('close', () => {
      for (const w of waiting.values()) w.reject(new Error(`display :${display} closed the connection`));
      waiting.clear();
    });
    socket.on('error', fail);
    socket.on('connect', () => {
      const name = Buffer.from('MIT-MAGIC-COOKIE-1');
      const header = Buffer.alloc(12);
      header.write('l', 0);
      header.writeUInt16LE(11, 2);
      header.writeUInt16LE(name.length, 6);
      header.writeUInt16LE(cookie.length, 8);
      socket.write(Buffer.concat([header, pad(name), pad(cookie)]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!connected) {
        if (buffer.length < 8) return;
        const total = 8 + 4 * buffer.readUInt16LE(6);
        if (buffer.length < total) return;
        if (buffer[0] !== 1) return fail(new Error(`display :${display} refused the connection`));
        const screen = 40 + padded(buffer.readUInt16LE(24)) + 8 * buffer[29]!;
        const root = buffer.readUInt32LE(screen);
        const idBase = buffer.readUInt32LE(12);
        const idMask = buffer.readUInt32LE(16);
        buffer = buffer.subarray(total);
        clearTimeout(timer);
        const write = (request: Buffer) => {
          sequence = (sequence + 1) & 0xffff;
          socket.write(request);
          return sequence;
        };
        connected = {
          root,
          idBase,
          idMask,
          ask: (request) =>
            new Promise((res, rej) => {
              if (socket.destroyed) return rej(new Error(`display :${display} closed the connection`));
              waiting.set(write(request), { resolve: res, reject: rej });
            }),
          send: (request) => {
            if (!socket.destroyed) write(request);
          },
          close: () => socket.destroy(),
          closed,
        };
        resolve(connected);
      }
      // Replies (1) carry 4*length extra bytes; errors (0) and events are 32 bytes.
      while (buffer.length >= 32) {
        const size = buffer[0] === 1 ? 32 + 4 * buffer.readUInt32LE(4) : 32;
        if (buffer.length < size) return;
        const message = buffer.subarray(0, size);
        buffer = buffer.subarray(size);
        const code = message[0]! & 0x7f;
        if (code > 1) {
          onEvent?.(Buffer.from(message));
          continue;
        }
        const seq = message.readUInt16LE(2);
        const waiter = waiting.get(seq);
        waiting.delete(seq);
        if (code === 1) waiter?.resolve(message);
        else waiter?.reject(new Error(`X error ${message[1]}`));
      }
    });
  });
}

/** A top-level window and where it is. */
interface Placed {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The root's children (QueryTree) with their geometry (GetGeometry); a window gone meanwhile is left out. */
async function topLevelWindows(x: X11Connection): Promise<Placed[]> {
  const query = Buffer.alloc(8);
  query.writeUInt8(15, 0); // QueryTree
  query.writeUInt16LE(2, 2);
  query.writeUInt32LE(x.root, 4);
  const tree = await x.ask(query);
  const windows: Placed[] = [];
  for (let i = 0; i < tree.readUInt16LE(16); i += 1) {
    const id = tree.readUInt32LE(32 + 4 * i);
    const geometry = Buffer.alloc(8);
    geometry.writeUInt8(14, 0); // GetGeometry
    geometry.writeUInt16LE(2, 2);
    geometry.writeUInt32LE(id, 4);
    const answer = await x.ask(geometry).catch(() => undefined);
    if (answer)
      windows.push({
        id,
        x: answer.readInt16LE(12),
        y: answer.readInt16LE(14),
        width: answer.readUInt16LE(16),
        height: answer.readUInt16LE(18),
      });
  }
  return windows;
}

/** FreeRDP's window: the largest top-level window (the others are 1x1 clipboard helpers of FreeRDP's and x11vnc's). */
async function largestWindow(x: X11Connection): Promise<Placed> {
  let best: Placed | undefined;
  for (const w of await topLevelWindows(x)) if (!best || w.width * w.height > best.width * best.height) best = w;
  if (!best) throw new Error('no FreeRDP window on the display');
  return best;
}

/**
 * Whether x11vnc's selection window exists on the display: x11vnc makes it (1x1 at +3+2, never
 * mapped) on the first pass of its X event checks, and only through it can it take the selections
 * with the browser's paste.
 */
export async function hasSelectionWindow(display: number, cookie: Buffer): Promise<boolean> {
  const x = await openX11(display, cookie);
  try {
    return (await topLevelWindows(x)).some((w) => w.x === 3 && w.y === 2 && w.width === 1 && w.height === 1);
  } finally {
    x.close();
  }
}

/**
 * The size of FreeRDP's window. FreeRDP sizes it to the remote desktop: a host that does not take
 * the asked resolution (a fixed-size server, freerdp-shadow) makes it that host's size.
 */
export async function largestWindowSize(display: number, cookie: Buffer): Promise<{ width: number; height: number }> {
  const x = await openX11(display, cookie);
  try {
    const { width, height } = await largestWindow(x);
    return { width, height };
  } finally {
    x.close();
  }
}

/**
 * Puts the pointer in FreeRDP's window, at its top left corner, so the keyboard goes there. The
 * display has no window manager, so the focus follows the pointer, and the screen is larger than
 * the window (the desktop is resized within it): the pointer the display starts with, at the
 * screen's centre, is outside it, and keys typed before a pointer event went nowhere. (An explicit
 * SetInputFocus does the same for keys but makes FreeRDP take the clipboard selections over, which
 * broke the one-way clipboard policies.)
 */
function focus(x: X11Connection, window: number): void {
  // WarpPointer: no source window (0), the destination window, source rectangle 0, to (0, 0) in it.
  const request = Buffer.alloc(24);
  request.writeUInt8(41, 0);
  request.writeUInt16LE(6, 2);
  request.writeUInt32LE(0, 4);
  request.writeUInt32LE(window, 8);
  x.send(request);
}

/** A round trip (GetInputFocus), so the requests sent before were handled (or their error seen). */
async function sync(x: X11Connection): Promise<void> {
  const request = Buffer.alloc(4);
  request.writeUInt8(43, 0);
  request.writeUInt16LE(1, 2);
  await x.ask(request);
}

/** Gives FreeRDP's window the keyboard (see `focus`); answers once the display has done it. */
export async function focusLargestWindow(display: number, cookie: Buffer): Promise<void> {
  const x = await openX11(display, cookie);
  try {
    focus(x, (await largestWindow(x)).id);
    await sync(x);
  } finally {
    x.close();
  }
}

/**
 * Resizes FreeRDP's window to width x height at 0,0 and keeps the keyboard on it. FreeRDP, started
 * with /dynamic-resolution, then asks the RDP host for that resolution.
 */
export async function resizeLargestWindow(
  display: number,
  cookie: Buffer,
  width: number,
  height: number,
): Promise<void> {
  const x = await openX11(display, cookie);
  try {
    const window = (await largestWindow(x)).id;
    // ConfigureWindow: x, y, width, height (value mask 0x000f).
    const configure = Buffer.alloc(28);
    configure.writeUInt8(12, 0);
    configure.writeUInt16LE(7, 2);
    configure.writeUInt32LE(window, 4);
    configure.writeUInt16LE(0x000f, 8);
    configure.writeInt32LE(0, 12);
    configure.writeInt32LE(0, 16);
    configure.writeUInt32LE(width, 20);
    configure.writeUInt32LE(height, 24);
    x.send(configure);
    focus(x, window);
    await sync(x);
  } finally {
    x.close();
  }
}
