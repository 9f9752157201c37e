// Before ssh2 loads anywhere: its packets' padding from a pool (ssh2-padding.ts).
import './ssh2-padding.js';
import { createRequire } from 'node:module';
import type ssh2 from 'ssh2';

const require = createRequire(import.meta.url);

/**
 * Whether ssh2 loaded its native crypto add-on (built by its install script, ADR 0003). Without it
 * (`npm ci --ignore-scripts`, no compiler) ssh2 still works: AES goes through Node's crypto, and
 * chacha20-poly1305 is computed in JavaScript.
 */
export const nativeCrypto: boolean = (require('ssh2/lib/protocol/crypto.js') as { bindingAvailable: boolean })
  .bindingAvailable;

// Ordered by what each costs ssh2 on the development machine (x86-64 with AES-NI), measured by
// `node scripts/bench-ciphers.mjs` (docs/benchmarks.md, "SSH ciphers"). AES-GCM first: one pass,
// Node's crypto (OpenSSL) with or without the add-on.
const AES_GCM: ssh2.CipherAlgorithm[] = ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com'];
const AES_CTR: ssh2.CipherAlgorithm[] = ['aes128-ctr', 'aes192-ctr', 'aes256-ctr'];
const CHACHA: ssh2.CipherAlgorithm = 'chacha20-poly1305@openssh.com';

/**
 * The ciphers the gateway's SSH server offers users' clients. In SSH the client's order decides
 * (the first of its ciphers the server also offers), and OpenSSH asks for chacha20-poly1305 first,
 * then AES-CTR, then AES-GCM: so the order here cannot steer a client, only what is left out can.
 * With the add-on, chacha20-poly1305 is native and costs about what AES-GCM does, so it stays. Without
 * it, chacha20-poly1305 in JavaScript is the dearest cipher by far, so it is not offered and OpenSSH
 * takes aes128-ctr; every client that speaks chacha20-poly1305 also speaks AES-CTR or AES-GCM.
 */
export function serverCiphers(native = nativeCrypto): ssh2.CipherAlgorithm[] {
  return native ? [...AES_GCM, CHACHA, ...AES_CTR] : [...AES_GCM, ...AES_CTR];
}

/**
 * The ciphers the gateway's SSH client asks the target's sshd for, fastest first (here the gateway is
 * the client, so its order decides). chacha20-poly1305 comes last, for a server offering nothing else.
 */
export function clientCiphers(native = nativeCrypto): ssh2.CipherAlgorithm[] {
  return native ? [...AES_GCM, CHACHA, ...AES_CTR] : [...AES_GCM, ...AES_CTR, CHACHA];
}

/** The algorithms option of the gateway's ssh2.Server. */
export function serverAlgorithms(native = nativeCrypto): ssh2.Algorithms {
  return { cipher: serverCiphers(native) };
}

/** The algorithms option of the gateway's ssh2.Client towards the target. */
export function clientAlgorithms(native = nativeCrypto): ssh2.Algorithms {
  return { cipher: clientCiphers(native) };
}
