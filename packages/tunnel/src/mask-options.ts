import net from 'node:net';

/** A masking key of zeros: ws then neither masks what it sends nor does the receiver unmask it. */
function zeroMask(mask: Buffer): void {
  mask.fill(0);
}

/** Whether a host name or address is this machine's loopback. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  return bare === '::1' || bare.toLowerCase().startsWith('::ffff:127.');
}

/**
 * Options for a `ws` client that carries tunnel bytes (issue 19). RFC 6455 has clients mask every
 * frame with a random key so that a script in a browser cannot make a transparent proxy on the path
 * misread its bytes (cache poisoning). Masking costs: XOR over every byte on the sender and again
 * on the receiver, which in ws's JavaScript fallback was the largest cost of the whole relay (the
 * agent ~14 ms of CPU per MiB for masking, the server as much again for unmasking).
 *
 * The key is zeros, which ws turns into "no XOR" on both sides, only where no such proxy can read
 * the frames: over TLS (wss:, the deployed case), where the frames are encrypted end to end, and on
 * loopback. Over plain ws: to another machine the key stays random, as the RFC asks.
 */
export function maskOptions(url: string): { generateMask?: (mask: Buffer) => void } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {};
  }
  if (parsed.protocol === 'wss:' || parsed.protocol === 'https:') return { generateMask: zeroMask };
  if ((parsed.protocol === 'ws:' || parsed.protocol === 'http:') && isLoopback(parsed.hostname))
    return { generateMask: zeroMask };
  return {};
}
