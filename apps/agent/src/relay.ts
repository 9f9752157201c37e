import net from 'node:net';
import { MuxStream, type MuxLink, TRACING, noDelay, trace } from '@gatehouse/tunnel';
import type { Log } from './log.js';

/**
 * Opens a tunnel stream to 127.0.0.1:port when the port is whitelisted, and pipes it both ways
 * (sending with the window the server named, `window`). Answers undefined when it opened, or the
 * reason it refused.
 */
export function openLocal(
  stream: number,
  port: number,
  window: number | undefined,
  whitelist: readonly number[],
  link: MuxLink,
  log: Log,
  onOpen: (mux: MuxStream, socket: net.Socket) => void,
): Promise<string | undefined> {
  if (!whitelist.includes(port)) {
    log.warn(`refused stream ${stream}: port ${port} is not whitelisted`);
    return Promise.resolve(`Port ${port} is not in this host's whitelist (${whitelist.join(', ') || 'empty'}).`);
  }
  return new Promise((resolve) => {
    const socket = noDelay(net.connect({ host: '127.0.0.1', port, allowHalfOpen: true }));
    const failed = (error: NodeJS.ErrnoException) => {
      log.warn(`stream ${stream}: 127.0.0.1:${port} ${error.code ?? error.message}`);
      resolve(`Nothing accepts connections on 127.0.0.1:${port} of this host (${error.code ?? error.message}).`);
    };
    socket.once('error', failed);
    socket.once('connect', () => {
      socket.off('error', failed);
      const mux = new MuxStream(stream, link, window);
      onOpen(mux, socket);
      // pipe() gives backpressure both ways and carries half-closes: the local service's FIN
      // ends the tunnel's writable side, and the far side's end ends the socket's.
      if (TRACING) {
        socket.on('data', (chunk: Buffer) => trace('a.sock', stream, chunk.length));
        mux.on('data', (chunk: Buffer) => trace('a.write', stream, chunk.length));
      }
      socket.pipe(mux).pipe(socket);
      socket.once('error', () => mux.destroy());
      // The service closed: finish sending what it wrote (its FIN travels as 'end') rather than
      // cutting the stream; the stream closes once the far side has ended too.
      socket.once('close', () => {
        if (!mux.writableEnded) mux.end();
      });
      mux.once('error', () => socket.destroy());
      mux.once('close', () => {
        // Let what was written reach the service; then make sure the socket goes away.
        socket.end();
        socket.setTimeout(10_000, () => socket.destroy());
      });
      log.debug(`stream ${stream} open to 127.0.0.1:${port}`);
      resolve(undefined);
    });
  });
}
