import { X509Certificate, createHash, createPrivateKey } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import type { IngressCertificate } from '@gatehouse/contracts';
import type { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

const KEY = 'ingress-tls';
const DAY = 86_400_000;

interface Stored {
  certificate: string;
  key_sealed: string;
  /** SHA-256 of the chain: instances compare it to know when to switch. */
  version: string;
}

/** The certificate and key HTTPS is served with, as PEM. */
export interface TlsMaterial {
  cert: string;
  key: string;
  version: string;
}

function certificatesOf(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0)
    throw new HttpError(
      400,
      'The certificate is not PEM: paste the chain beginning with -----BEGIN CERTIFICATE-----, the server’s certificate first.',
    );
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw new HttpError(400, `Certificate ${i + 1} of the chain cannot be read: it is damaged or not X.509.`);
    }
  });
}

function names(altNames: string | undefined): string[] {
  return (altNames ?? '')
    .split(/,\s*/)
    .map((n) => n.trim())
    .filter(Boolean);
}

function describe(cert: X509Certificate, https: number | null): z.infer<typeof IngressCertificate> {
  const validTo = new Date(cert.validTo);
  return {
    installed: true,
    issuer: cert.issuer.split('\n').join(', '),
    subject: cert.subject.split('\n').join(', '),
    subject_alternative_names: names(cert.subjectAltName),
    valid_from: new Date(cert.validFrom).toISOString(),
    valid_to: validTo.toISOString(),
    days_until_expiry: Math.floor((validTo.getTime() - Date.now()) / DAY),
    fingerprint_sha256: cert.fingerprint256,
    https_port: https,
  };
}

/**
 * The ingress certificate: checked when uploaded (PEM, chain order, key match, validity), kept
 * in the database with its key sealed, and served by every instance's HTTPS listener.
 */
export class IngressTlsService {
  /** Called after a certificate is saved here (this instance's listener switches at once). */
  onSaved: (() => Promise<void>) | undefined;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly box: SecretBox,
    private readonly httpsPort: number | undefined,
  ) {}

  /** The installed certificate, described. */
  async describe(): Promise<z.infer<typeof IngressCertificate>> {
    const stored = (await this.settings.get(KEY)) as Stored | undefined;
    const leaf = stored ? certificatesOf(stored.certificate)[0] : undefined;
    if (!leaf)
      return {
        installed: false,
        issuer: null,
        subject: null,
        subject_alternative_names: [],
        valid_from: null,
        valid_to: null,
        days_until_expiry: null,
        fingerprint_sha256: null,
        https_port: null,
      };
    return describe(leaf, this.httpsPort ?? null);
  }

  /** Checks and installs a certificate chain with its key. */
  async save(certificatePem: string, keyPem: string) {
    const chain = certificatesOf(certificatePem);
    const leaf = chain[0] as X509Certificate;
    let key;
    try {
      key = createPrivateKey(keyPem);
    } catch {
      throw new HttpError(
        400,
        'The private key cannot be read: paste an unencrypted PEM key (-----BEGIN PRIVATE KEY----- or RSA/EC PRIVATE KEY).',
      );
    }
    if (!leaf.checkPrivateKey(key))
      throw new HttpError(
        400,
        'The private key does not belong to the certificate: the first certificate of the chain must be the one issued for this key.',
      );
    const now = Date.now();
    if (new Date(leaf.validTo).getTime() < now)
      throw new HttpError(400, `The certificate expired on ${new Date(leaf.validTo).toISOString().slice(0, 10)}.`);
    if (new Date(leaf.validFrom).getTime() > now)
      throw new HttpError(
        400,
        `The certificate is not valid before ${new Date(leaf.validFrom).toISOString()}: check the clocks or upload it later.`,
      );
    for (let i = 0; i + 1 < chain.length; i += 1) {
      if (!(chain[i] as X509Certificate).checkIssued(chain[i + 1] as X509Certificate))
        throw new HttpError(
          400,
          `The chain is out of order: certificate ${i + 2} did not issue certificate ${i + 1}. Put the server’s certificate first, then each issuer.`,
        );
    }
    const cert = chain.map((c) => c.toString()).join('');
    const keyText = key.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      createSecureContext({ cert, key: keyText });
    } catch (error) {
      throw new HttpError(400, `TLS cannot use this certificate and key: ${(error as Error).message}`);
    }
    const stored: Stored = {
      certificate: cert,
      key_sealed: this.box.seal(keyText),
      version: createHash('sha256').update(cert).digest('hex'),
    };
    await this.settings.put(KEY, stored);
    await this.onSaved?.();
    return { message: 'Certificate saved.', certificate: describe(leaf, this.httpsPort ?? null) };
  }

  /** What HTTPS should serve now, or undefined when no certificate is installed. */
  async material(): Promise<TlsMaterial | undefined> {
    const stored = (await this.settings.get(KEY)) as Stored | undefined;
    if (!stored) return undefined;
    return { cert: stored.certificate, key: this.box.open(stored.key_sealed), version: stored.version };
  }
}
