// The parser node-saml itself uses (xml2js, prefixes stripped); the package has no exports map.
import { parseXml2JsFromString } from '@node-saml/node-saml/lib/xml.js';
import { HttpError } from '../../http/errors.js';
import type { SamlSettings } from './sso-config.service.js';

/** An element as xml2js gives it: attributes under $, text under _, children in arrays. */
export type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };

export const isNode = (v: unknown): v is XmlNode => typeof v === 'object' && v !== null && !Array.isArray(v);
export const children = (node: unknown, name: string): unknown[] => {
  const v = isNode(node) ? node[name] : undefined;
  return Array.isArray(v) ? v : [];
};
export const elements = (node: unknown, name: string): XmlNode[] => children(node, name).filter(isNode);
export const attr = (node: unknown, name: string): string | undefined => (isNode(node) ? node.$?.[name] : undefined);
export const text = (v: unknown): string =>
  (typeof v === 'string' ? v : isNode(v) && typeof v._ === 'string' ? v._ : '').trim();

/** Every SignatureMethod and DigestMethod algorithm anywhere in the document. */
function algorithmsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) algorithmsIn(v, found);
  else if (isNode(node))
    for (const [key, v] of Object.entries(node)) {
      if (key === '$' || key === '_') continue;
      if (key === 'SignatureMethod' || key === 'DigestMethod')
        for (const e of children(node, key)) found.push(attr(e, 'Algorithm') ?? '');
      algorithmsIn(v, found);
    }
  return found;
}

/** Checks what node-saml does not, on the posted XML, before any signature is verified. */
export async function precheckResponse(s: SamlSettings, samlResponse: string): Promise<void> {
  let doc: unknown;
  try {
    doc = await parseXml2JsFromString(Buffer.from(samlResponse, 'base64').toString('utf8'));
  } catch {
    throw new HttpError(400, 'The posted SAMLResponse is not base64 of an XML document.');
  }
  const response = isNode(doc) ? doc.Response : undefined;
  if (!isNode(response)) throw new HttpError(400, 'The posted SAMLResponse is not a SAML Response.');
  const status = elements(response, 'Status')[0];
  const code = attr(elements(status, 'StatusCode')[0], 'Value') ?? '';
  if (code && !code.endsWith(':Success')) {
    const message = text(children(status, 'StatusMessage')[0]);
    throw new HttpError(
      401,
      `The identity provider refused the sign-in: ${code.split(':').pop() ?? code}${message ? ` (${message})` : ''}.`,
    );
  }
  if (children(response, 'EncryptedAssertion').length > 0)
    throw new HttpError(
      401,
      'Encrypted SAML assertions are not supported: turn assertion encryption off for Gatehouse at the identity provider.',
    );
  const assertions = children(response, 'Assertion');
  if (assertions.length !== 1)
    throw new HttpError(
      401,
      assertions.length
        ? 'The SAML response carries more than one assertion: refused.'
        : 'The SAML response carries no assertion.',
    );
  if (s.security.rejectDeprecatedAlgorithm) {
    const sha1 = algorithmsIn(response).filter((a) => /[#-]sha1$/i.test(a));
    if (sha1.length)
      throw new HttpError(
        401,
        `The SAML response is signed with SHA-1 (${[...new Set(sha1)].join(', ')}), which is refused: have the identity provider sign with SHA-256.`,
      );
  }
  const responseSigned = children(response, 'Signature').length > 0;
  const assertionSigned = children(assertions[0], 'Signature').length > 0;
  if (!responseSigned && !assertionSigned)
    throw new HttpError(401, 'The SAML response is not signed: have the identity provider sign its assertions.');
  if ((s.strict || s.security.wantAssertionsSigned) && !assertionSigned)
    throw new HttpError(
      401,
      'The SAML response is not signed where it must be: the assertion itself carries no signature, and Settings → Single sign-on want assertions signed.',
    );
  if (s.security.wantMessagesSigned && !responseSigned)
    throw new HttpError(
      401,
      'The SAML response is not signed as a whole, and Settings → Single sign-on want messages signed.',
    );
  const destination = attr(response, 'Destination');
  const acs = s.sp.assertionConsumerService.url;
  if ((destination !== undefined || (s.strict && responseSigned)) && destination !== acs)
    throw new HttpError(
      401,
      `The SAML response is addressed to ${destination || 'no Destination'}, not to this server’s ACS (${acs}).`,
    );
  if (elements(assertions[0], 'Conditions').length !== 1)
    throw new HttpError(401, 'The SAML assertion has no Conditions (audience and validity): refused.');
}
