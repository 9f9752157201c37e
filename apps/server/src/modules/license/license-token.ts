import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

/**
 * The vendor's public key. Licences for customers are signed with its private half, which the
 * vendor keeps and which is not in this repository.
 */
export const VENDOR_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEALWc72VVRtxNQDMbcUclC4sXnYXsrAV0cpC0WIr+DbIs=
-----END PUBLIC KEY-----
`;

/**
 * The development key pair: public on purpose, for tests and demos. The server accepts licences
 * signed with it only when started with GATEHOUSE_DEV_LICENSES=true.
 */
export const DEV_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAfSX6ZwN6ej5qVRZc4KhIGUTr8y5HqIj3whHRlUFA680=
-----END PUBLIC KEY-----
`;
export const DEV_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIAHDlv3fZBjy07gdvcdqgHGoul06bXWpD1OB94B7gk4I
-----END PRIVATE KEY-----
`;

const PREFIX = 'GHL1';

/** What a licence grants. */
export interface LicenseClaims {
  /** Licence id. */
  id: string;
  customer: string;
  /** ISO 8601 UTC. */
  issued_at: string;
  /** ISO 8601 UTC. */
  expires: string;
  /** Enrolled agents allowed. */
  max_agents: number;
}

/** Why a licence was refused, in words for the administrator. */
export class LicenseError extends Error {}

/** Signs claims into a licence: GHL1.<claims, base64url JSON>.<Ed25519 signature, base64url>. */
export function mintLicense(claims: LicenseClaims, privateKeyPem: string): string {
  const payload = `${PREFIX}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = sign(null, Buffer.from(payload), createPrivateKey(privateKeyPem)).toString('base64url');
  return `${payload}.${signature}`;
}

function isClaims(value: unknown): value is LicenseClaims {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.id === 'string' &&
    typeof c.customer === 'string' &&
    c.customer.length > 0 &&
    typeof c.issued_at === 'string' &&
    typeof c.expires === 'string' &&
    !Number.isNaN(Date.parse(c.expires)) &&
    !Number.isNaN(Date.parse(c.issued_at)) &&
    typeof c.max_agents === 'number' &&
    Number.isInteger(c.max_agents) &&
    c.max_agents >= 0
  );
}

/**
 * Reads a licence and checks its signature against the vendor key, and against the development
 * key when `allowDevelopment`. Expiry is not checked here (an installed licence may lapse).
 */
export function readLicense(text: string, allowDevelopment: boolean): { claims: LicenseClaims; development: boolean } {
  const parts = text.replace(/\s+/g, '').split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX || !parts[1] || !parts[2]) {
    throw new LicenseError(
      'This is not a Gatehouse licence: it should look like GHL1.xxxx.yyyy. Paste the whole text.',
    );
  }
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    throw new LicenseError('This licence is damaged: its contents cannot be read. Paste it again, whole.');
  }
  if (!isClaims(claims)) throw new LicenseError('This licence is damaged: it lacks the customer, expiry or limits.');
  const payload = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2], 'base64url');
  const valid = (pem: string) => {
    try {
      return verify(null, payload, createPublicKey(pem), signature);
    } catch {
      return false;
    }
  };
  if (valid(VENDOR_PUBLIC_KEY)) return { claims, development: false };
  if (valid(DEV_PUBLIC_KEY)) {
    if (allowDevelopment) return { claims, development: true };
    throw new LicenseError(
      'This licence is signed with the development key. The server accepts it only when started with GATEHOUSE_DEV_LICENSES=true (never in production).',
    );
  }
  throw new LicenseError('This licence’s signature is not valid: it was changed or not issued by the vendor.');
}
