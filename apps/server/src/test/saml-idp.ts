import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

const run = promisify(execFile);

const NS_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const NS_ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const ALGORITHMS = {
  sha256: {
    signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
  },
  sha1: { signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', digest: 'http://www.w3.org/2000/09/xmldsig#sha1' },
} as const;

/** An RSA key and its self-signed certificate, both PEM. */
export interface KeyPair {
  key: string;
  cert: string;
}

/** Makes an RSA key and a self-signed certificate for it with the openssl command. */
export async function makeKeyPair(commonName: string): Promise<KeyPair> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-saml-'));
  try {
    await run(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2'].concat([
        '-subj',
        `/CN=${commonName}`,
      ]),
      { cwd: dir },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An AuthnRequest as the IdP reads it from the redirect (HTTP-Redirect binding). */
export interface ReceivedRequest {
  id: string;
  relayState: string;
  acsUrl: string;
  issuer: string;
  destination: string;
  nameIdFormat: string | undefined;
  xml: string;
  /** The query's SigAlg and Signature, when the SP signed the request. */
  signature: { sigAlg: string; value: string; signedText: string } | undefined;
}

/** What the IdP puts in (or does to) one response. Defaults make a valid, signed sign-in. */
export interface ResponseOptions {
  inResponseTo: string;
  /** The NameID; an email unless nameIdFormat says otherwise. */
  nameId: string;
  nameIdFormat?: string;
  /** Attribute name → values. */
  attributes?: Record<string, string[]>;
  audience: string;
  /** The ACS URL (SubjectConfirmationData Recipient and Response Destination). */
  recipient: string;
  destination?: string;
  issuer?: string;
  /** The end of the assertion's validity (default: in five minutes). */
  notOnOrAfter?: Date;
  signAssertion?: boolean;
  signResponse?: boolean;
  algorithm?: keyof typeof ALGORITHMS;
  /** Sign with this key instead of the IdP's own (whose certificate the SP trusts). */
  signingKey?: KeyPair;
  /** Changes the XML after it was signed (to prove alterations are caught). */
  tamper?: (xml: string) => string;
}

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const newId = () => `_${randomBytes(16).toString('hex')}`;

/**
 * A SAML identity provider inside the test: it reads the SP's AuthnRequest from the redirect URL
 * and answers with Responses whose Assertion (and, when asked, the Response) carries a real
 * enveloped XML signature (RSA-SHA256, exclusive c14n) made with its key.
 */
export class TestSamlIdp {
  readonly entityId = 'https://idp.example.test/saml';
  readonly ssoUrl = 'https://idp.example.test/saml/sso';

  private constructor(readonly keys: KeyPair) {}

  static async create(): Promise<TestSamlIdp> {
    return new TestSamlIdp(await makeKeyPair('idp.example.test'));
  }

  /** The certificate the SP must trust. */
  get cert(): string {
    return this.keys.cert;
  }

  /** Reads the AuthnRequest the SP sent the browser with. */
  readRequest(redirectUrl: string): ReceivedRequest {
    const url = new URL(redirectUrl);
    if (`${url.origin}${url.pathname}` !== this.ssoUrl) throw new Error(`not this IdP: ${redirectUrl}`);
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded) throw new Error('no SAMLRequest in the redirect');
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1];
    const sigAlg = url.searchParams.get('SigAlg');
    const value = url.searchParams.get('Signature');
    const relayState = url.searchParams.get('RelayState') ?? '';
    // The order the SAML binding signs: SAMLRequest, RelayState, SigAlg (as the SP encoded them).
    const raw = url.search.slice(1).split('&');
    const part = (name: string) => raw.find((p) => p.startsWith(`${name}=`));
    return {
      id: attribute('ID') ?? '',
      relayState,
      acsUrl: attribute('AssertionConsumerServiceURL') ?? '',
      destination: attribute('Destination') ?? '',
      issuer: /<(?:\w+:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '',
      nameIdFormat: /<(?:\w+:)?NameIDPolicy[^>]*\sFormat="([^"]*)"/.exec(xml)?.[1],
      xml,
      signature:
        sigAlg && value
          ? {
              sigAlg,
              value,
              signedText: ['SAMLRequest', 'RelayState', 'SigAlg']
                .map(part)
                .filter((p): p is string => p !== undefined)
                .join('&'),
            }
          : undefined,
    };
  }

  /** A base64 SAMLResponse, as the browser would post it to the ACS. */
  respond(o: ResponseOptions): string {
    const now = new Date();
    const end = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
    const start = new Date(Math.min(now.getTime(), end.getTime()) - 60_000);
    const issuer = escape(o.issuer ?? this.entityId);
    const attributes = Object.entries(o.attributes ?? {})
      .map(
        ([name, values]) =>
          `<saml:Attribute Name="${escape(name)}">${values
            .map((v) => `<saml:AttributeValue>${escape(v)}</saml:AttributeValue>`)
            .join('')}</saml:Attribute>`,
      )
      .join('');
    const assertion =
      `<saml:Assertion xmlns:saml="${NS_ASSERTION}" ID="${newId()}" Version="2.0" IssueInstant="${now.toISOString()}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${escape(o.nameIdFormat ?? EMAIL_FORMAT)}">${escape(o.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData InResponseTo="${escape(o.inResponseTo)}" NotOnOrAfter="${end.toISOString()}" ` +
      `Recipient="${escape(o.recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${start.toISOString()}" NotOnOrAfter="${end.toISOString()}">` +
      `<saml:AudienceRestriction><saml:Audience>${escape(o.audience)}</saml:Audience></saml:AudienceRestriction>` +
      `</saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${newId()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport` +
      `</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`;
    let xml =
      `<samlp:Response xmlns:samlp="${NS_PROTOCOL}" xmlns:saml="${NS_ASSERTION}" ID="${newId()}" Version="2.0" ` +
      `IssueInstant="${now.toISOString()}" Destination="${escape(o.destination ?? o.recipient)}" ` +
      `InResponseTo="${escape(o.inResponseTo)}"><saml:Issuer>${issuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `${assertion}</samlp:Response>`;
    const keys = o.signingKey ?? this.keys;
    const algorithm = ALGORITHMS[o.algorithm ?? 'sha256'];
    const sign = (document: string, element: string) => {
      const signer = new SignedXml({
        privateKey: keys.key,
        publicCert: keys.cert,
        signatureAlgorithm: algorithm.signature,
        canonicalizationAlgorithm: EXC_C14N,
      });
      const target = `//*[local-name(.)='${element}']`;
      signer.addReference({ xpath: target, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: algorithm.digest });
      // Schema order: the signature follows the element's Issuer.
      signer.computeSignature(document, {
        prefix: 'ds',
        location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
      });
      return signer.getSignedXml();
    };
    if (o.signAssertion ?? true) xml = sign(xml, 'Assertion');
    if (o.signResponse) xml = sign(xml, 'Response');
    if (o.tamper) xml = o.tamper(xml);
    return Buffer.from(xml, 'utf8').toString('base64');
  }
}
