import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { type CBORType, encodeCBOR } from '@levischuck/tiny-cbor';
import { expect } from 'vitest';
import type { TestServer } from './harness.js';

/** What the server's WebAuthn options routes answer. */
type Challenge = { challenge_id: string; options: { challenge: string } };

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A software authenticator for the server's tests: a P-256 key (ES256) made here, answering
 * WebAuthn ceremonies as a browser with a platform authenticator would serialise them
 * (@simplewebauthn/browser's JSON), for one relying party. The server verifies its answers with
 * @simplewebauthn/server like any other; nothing of the server is bypassed.
 */
export class SoftwareAuthenticator {
  private readonly key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  readonly credentialId = b64url(randomBytes(16));
  private counter = 0;

  constructor(
    /** The console's origin the browser signs for, e.g. http://console.example.test. */
    private readonly origin: string,
  ) {}

  private authenticatorData(flags: number, attested?: Uint8Array): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const rpIdHash = sha256(new URL(this.origin).hostname);
    return Buffer.concat([rpIdHash, Buffer.from([flags]), counter, attested ?? Buffer.alloc(0)]);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The public key as COSE (RFC 9053: kty EC2, alg ES256, crv P-256, x, y). */
  private coseKey(): Uint8Array {
    const jwk = this.key.publicKey.export({ format: 'jwk' });
    return encodeCBOR(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
  }

  /** The answer to navigator.credentials.create for these options (attestation none). */
  register(options: { challenge: string }) {
    const id = Buffer.from(this.credentialId, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, this.coseKey()]);
    const authData = this.authenticatorData(UP | UV | AT, attested);
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CBORType>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The answer to navigator.credentials.get for these options: a signed assertion, counter advanced. */
  assert(options: { challenge: string }) {
    this.counter += 1;
    const authData = this.authenticatorData(UP | UV);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.key.privateKey);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

/** Registers a new software passkey for the holder of `token` through the API; answers it. */
export async function enrolPasskey(server: TestServer, token: string, origin: string) {
  const authenticator = new SoftwareAuthenticator(origin);
  const options = await server.call<Challenge>('POST', '/api/user/passkeys/options', { token });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const added = await server.call('POST', '/api/user/passkeys', {
    token,
    body: { challenge_id: options.body.challenge_id, credential: authenticator.register(options.body.options) },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return authenticator;
}

/** A passkey proof for the holder of `token`: a challenge of POST /api/auth/second-factor/options, answered. */
export async function passkeyProof(server: TestServer, token: string, authenticator: SoftwareAuthenticator) {
  const options = await server.call<Challenge>('POST', '/api/auth/second-factor/options', { token });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  return { challenge_id: options.body.challenge_id, credential: authenticator.assert(options.body.options) };
}
