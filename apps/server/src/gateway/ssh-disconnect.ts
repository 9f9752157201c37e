// Before ssh2 loads anywhere: its packets' padding from a pool (ssh2-padding.ts).
import './ssh2-padding.js';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type ssh2 from 'ssh2';
import { endSocket } from '../lib/admission.js';

/** SSH_MSG_DISCONNECT reason codes (RFC 4253 §11.1) the gateway sends. */
export const DISCONNECT = {
  PROTOCOL_ERROR: 2,
  KEY_EXCHANGE_FAILED: 3,
  BY_APPLICATION: 11,
  TOO_MANY_CONNECTIONS: 12,
  NO_MORE_AUTH_METHODS_AVAILABLE: 14,
} as const;

/** The gateway's identification line (ssh2 sends `SSH-2.0-` + the server's ident). */
const IDENT = 'SSH-2.0-Gatehouse\r\n';

/**
 * An SSH_MSG_DISCONNECT as an unencrypted binary packet (RFC 4253 §6): valid before any key
 * exchange has finished. OpenSSH prints its description ("Received disconnect from …: text").
 */
export function plainDisconnect(code: number, description: string): Buffer {
  const text = Buffer.from(description, 'utf8');
  const payload = Buffer.alloc(1 + 4 + 4 + text.length + 4);
  payload[0] = 1; // SSH_MSG_DISCONNECT
  payload.writeUInt32BE(code, 1);
  payload.writeUInt32BE(text.length, 5);
  text.copy(payload, 9);
  // The language tag stays empty (four zero bytes, already there).
  let padding = 8 - ((5 + payload.length) % 8);
  if (padding < 4) padding += 8;
  const packet = Buffer.alloc(5 + payload.length + padding);
  packet.writeUInt32BE(1 + payload.length + padding, 0);
  packet[4] = padding;
  payload.copy(packet, 5);
  return packet;
}

/**
 * What a refused connection hears, before ssh2 ever sees it: our identification line and a
 * disconnect with the reason. Built once per reason; refusing costs one write.
 */
export function refusalBytes(code: number, description: string): Buffer {
  return Buffer.concat([Buffer.from(IDENT), plainDisconnect(code, description)]);
}

interface ProtocolInternals {
  _packetRW: {
    write: {
      allocStartKEX: number;
      alloc(length: number, forceNormal?: boolean): Buffer;
      finalize(packet: Buffer, forceNormal?: boolean): Buffer;
    };
  };
}

type SendPacket = (protocol: ProtocolInternals, packet: Buffer, bypass?: boolean) => boolean;

// ssh2's own disconnect() sends no description; this is the same packet with one, through the
// same writer (so it is encrypted once keys are in use, and sent even in the middle of a key
// exchange). ssh2's version is pinned in the lockfile; gateway-limits.test.ts proves the text
// reaches OpenSSH, and without these internals the connection just closes.
const require = createRequire(import.meta.url);
const sendPacket = (() => {
  try {
    return (require('ssh2/lib/protocol/utils.js') as { sendPacket?: SendPacket }).sendPacket;
  } catch {
    return undefined;
  }
})();

/**
 * Sends SSH_MSG_DISCONNECT with `description` over an ssh2 server connection that has exchanged
 * identification lines, then closes it. The user's ssh prints the description.
 */
export function disconnect(client: ssh2.Connection, socket: Socket, code: number, description: string): void {
  const protocol = (client as unknown as { _protocol?: ProtocolInternals })._protocol;
  try {
    if (protocol && sendPacket) {
      const text = Buffer.from(description, 'utf8');
      const writer = protocol._packetRW.write;
      const length = 1 + 4 + 4 + text.length + 4;
      let at = writer.allocStartKEX;
      const packet = writer.alloc(length, true);
      packet[at] = 1; // SSH_MSG_DISCONNECT
      packet.writeUInt32BE(code, ++at);
      packet.writeUInt32BE(text.length, (at += 4));
      text.copy(packet, (at += 4));
      packet.fill(0, at + text.length, at + text.length + 4);
      sendPacket(protocol, writer.finalize(packet, true), true);
    }
  } catch {
    // The connection closes without the words.
  }
  endSocket(socket);
}
