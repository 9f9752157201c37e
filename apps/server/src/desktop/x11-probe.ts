import net from 'node:net';

/** How long one probe may take before it counts as "no answer". */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Asks an X display (over its unix socket, with its MIT-MAGIC-COOKIE-1) how many top-level
 * windows its root has. The gateway's display has no window manager: the only top-level window
 * is FreeRDP's, which FreeRDP creates once the RDP connection is up (after the login). A tiny
 * X11 client of two requests, so the server needs no x11-utils just for this.
 */
export function countTopLevelWindows(display: number, cookie: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(`/tmp/.X11-unix/X${display}`);
    const timer = setTimeout(() => fail(new Error(`display :${display} did not answer`)), PROBE_TIMEOUT_MS);
    let buffer = Buffer.alloc(0);
    let root: number | undefined;
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('connect', () => {
      const name = Buffer.from('MIT-MAGIC-COOKIE-1');
      const header = Buffer.alloc(12);
      header.write('l', 0); // little-endian
      header.writeUInt16LE(11, 2);
      header.writeUInt16LE(0, 4);
      header.writeUInt16LE(name.length, 6);
      header.writeUInt16LE(cookie.length, 8);
      socket.write(Buffer.concat([header, pad(name), pad(cookie)]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (root === undefined) {
        if (buffer.length < 8) return;
        const total = 8 + 4 * buffer.readUInt16LE(6);
        if (buffer.length < total) return;
        if (buffer[0] !== 1) return fail(new Error(`display :${display} refused the connection`));
        const vendorLength = buffer.readUInt16LE(24);
        const formats = buffer[29]!;
        const screen = 40 + padded(vendorLength) + 8 * formats;
        root = buffer.readUInt32LE(screen);
        buffer = buffer.subarray(total);
        // QueryTree(root): opcode 15, length 2 words.
        const request = Buffer.alloc(8);
        request.writeUInt8(15, 0);
        request.writeUInt16LE(2, 2);
        request.writeUInt32LE(root, 4);
        socket.write(request);
        return;
      }
      if (buffer.length < 32) return;
      if (buffer[0] !== 1) return fail(new Error(`display :${display} answered an error`));
      clearTimeout(timer);
      const children = buffer.readUInt16LE(16);
      socket.destroy();
      resolve(children);
    });
  });
}

function padded(length: number): number {
  return (length + 3) & ~3;
}

function pad(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc(padded(data.length) - data.length)]);
}
