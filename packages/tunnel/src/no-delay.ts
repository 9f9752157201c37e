/** What noDelay needs of a socket: net.Socket and tls.TLSSocket have it; other duplexes may not. */
interface MaybeTcp {
  setNoDelay?: (noDelay?: boolean) => unknown;
}

/**
 * Turns Nagle's algorithm off on a TCP socket: a small write (a keystroke, its echo, a tunnel frame)
 * leaves at once instead of waiting for the ACK of the write before it, which a peer that delays its
 * ACKs holds back for ~40 ms (issue 19: every keystroke through the gateway took 43 ms when its
 * listener left Nagle on). Every socket Gatehouse owns on a session's path goes through this, including
 * WebSockets, whose library sets it too: the property does not rest on a library's internals.
 * Answers the socket; a stream without setNoDelay (a tunnel stream, a unix socket pair) is left alone.
 */
export function noDelay<T>(socket: T): T {
  const tcp = socket as MaybeTcp;
  if (typeof tcp.setNoDelay === 'function') tcp.setNoDelay(true);
  return socket;
}

/** Options for net.createServer and http(s).createServer: accepted sockets start with Nagle off. */
export const NO_DELAY = { noDelay: true } as const;
