import { X509Certificate } from 'node:crypto';
import {
  type CacheProvider,
  type Profile,
  SAML,
  type SamlConfig,
  SamlStatusError,
  ValidateInResponseTo,
  generateServiceProviderMetadata,
} from '@node-saml/node-saml';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.js';
import type { ExternalIdentity } from './external-accounts.js';
import { type XmlNode, attr, children, elements, isNode, precheckResponse, text } from './saml-response-checks.js';
import type { SamlSettings, SsoConfigService } from './sso-config.service.js';
import type { SamlDriver } from './sso-flow.service.js';

/** How long an AuthnRequest may be answered (the flow row lives as long). */
const REQUEST_MS = 10 * 60_000;
const CLOCK_SKEW_MS = 5_000;
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const NOT_SET_UP =
  "SAML is not set up: enter the identity provider's sign-on URL and certificate in Settings → Single sign-on.";
const BAD_SIGNATURE =
  "The SAML response's signature is not valid: it was altered, or made with a key other than the identity " +
  'provider certificate in Settings → Single sign-on.';
const NOT_THIS_REQUEST = 'The SAML response does not answer this sign-in (InResponseTo): start it again.';
const EXPIRED = 'The SAML assertion has expired (or its clock is far off this server’s): sign in again.';

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailaddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = [
  'displayname',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'cn',
  'urn:oid:2.5.4.3',
  'name',
];
const GROUP_ATTRIBUTES = [
  'groups',
  'memberof',
  'group',
  'http://schemas.xmlsoap.org/claims/group',
  'role',
  'roles',
  'http://schemas.microsoft.com/ws/2008/06/identity/claims/role',
  'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
];

/** The IdP certificate as PEM; a 400 naming the setting when it is missing or not a certificate. */
function idpCertificate(s: SamlSettings): string {
  if (!s.idp.singleSignOnService.url || !s.idp.x509cert) throw new HttpError(400, NOT_SET_UP);
  const value = s.idp.x509cert.trim();
  try {
    const cert = value.includes('-----BEGIN')
      ? new X509Certificate(value)
      : new X509Certificate(Buffer.from(value.replace(/\s+/g, ''), 'base64'));
    return cert.toString();
  } catch {
    throw new HttpError(
      400,
      'The identity provider certificate in Settings → Single sign-on is not an X.509 certificate (PEM, or its base64).',
    );
  }
}

/** AuthnRequests are signed when the settings ask and a key is stored. */
const signsRequests = (s: SamlSettings) => s.security.authnRequestsSigned && Boolean(s.spPrivateKey);

/** InResponseTo is checked against the flow's own request id only: nothing kept in this process. */
function flowCache(requestId: string, requestedAt: string): CacheProvider {
  return {
    saveAsync: (_key, value) => Promise.resolve({ value, createdAt: Date.now() }),
    getAsync: (key) => Promise.resolve(key === requestId ? requestedAt : null),
    removeAsync: () => Promise.resolve(null),
  };
}

/** What the user reads for a refusal by node-saml; `reason` is the library's own words. */
function refusal(reason: string): HttpError {
  const audience = /audience mismatch\. Expected: (.*) Received: (.*)$/.exec(reason);
  if (audience)
    return new HttpError(
      401,
      `The SAML assertion is for another audience (${audience[2]}), not for this server (${audience[1]}): ` +
        'register this server’s entity id at the identity provider.',
    );
  if (/InResponseTo/i.test(reason)) return new HttpError(401, NOT_THIS_REQUEST);
  if (/not yet valid/i.test(reason))
    return new HttpError(
      401,
      'The SAML assertion is not valid yet: check the clocks of the identity provider and of this server.',
    );
  if (/expired|No valid subject confirmation/i.test(reason)) return new HttpError(401, EXPIRED);
  if (/AudienceRestriction|Audience value/i.test(reason))
    return new HttpError(401, 'The SAML assertion names no audience, so it could be meant for any service: refused.');
  if (/signature|signed data/i.test(reason)) return new HttpError(401, BAD_SIGNATURE);
  return new HttpError(401, `The SAML response was refused: ${reason}`);
}

/**
 * SAML sign-in (auth type 2) with @node-saml/node-saml as the service provider: AuthnRequests over
 * the HTTP-Redirect binding, responses over HTTP-POST. Each call builds its SAML object from the
 * stored settings, and what the ACS checks comes from the flow row, so any instance can finish a
 * sign-in another began.
 */
export class SamlService implements SamlDriver {
  constructor(
    private readonly settings: SsoConfigService,
    /** Where refusals are explained when saml_config.debug is on. */
    private readonly log?: FastifyBaseLogger,
  ) {}

  private options(s: SamlSettings, idpCert: string): SamlConfig {
    return {
      entryPoint: s.idp.singleSignOnService.url,
      idpCert,
      issuer: s.sp.entityId,
      audience: s.sp.entityId,
      callbackUrl: s.sp.assertionConsumerService.url,
      identifierFormat: s.sp.NameIDFormat || null,
      disableRequestedAuthnContext: true,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_MS,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      wantAssertionsSigned: s.strict || s.security.wantAssertionsSigned,
      wantAuthnResponseSigned: s.security.wantMessagesSigned,
      signatureAlgorithm: s.security.signatureAlgorithm,
    };
  }

  async begin(relayState: string): Promise<{ redirectUrl: string; data: Record<string, string> }> {
    const s = await this.settings.saml();
    const idpCert = idpCertificate(s);
    let request: { id: string; at: string } | undefined;
    const saml = new SAML({
      ...this.options(s, idpCert),
      ...(signsRequests(s) ? { privateKey: s.spPrivateKey } : {}),
      cacheProvider: {
        saveAsync: (id, at) => {
          request = { id, at };
          return Promise.resolve({ value: at, createdAt: Date.now() });
        },
        getAsync: () => Promise.resolve(null),
        removeAsync: () => Promise.resolve(null),
      },
    });
    let redirectUrl: string;
    try {
      redirectUrl = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
    } catch (error) {
      throw new HttpError(400, `The SAML request could not be made: ${(error as Error).message}`);
    }
    if (!request) throw new Error('node-saml made an AuthnRequest without recording its id');
    return { redirectUrl, data: { requestId: request.id, requestedAt: request.at } };
  }

  async complete(
    samlResponse: string,
    data: Record<string, string>,
  ): Promise<ExternalIdentity & { assertionId: string; validUntil: Date }> {
    const s = await this.settings.saml();
    const idpCert = idpCertificate(s);
    let reason: string | undefined;
    try {
      const { requestId, requestedAt } = data;
      if (!requestId || !requestedAt) throw new HttpError(401, NOT_THIS_REQUEST);
      await precheckResponse(s, samlResponse);
      const saml = new SAML({ ...this.options(s, idpCert), cacheProvider: flowCache(requestId, requestedAt) });
      let profile: Profile | null;
      try {
        ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (error) {
        if (error instanceof SamlStatusError)
          throw new HttpError(401, `The identity provider refused the sign-in: ${error.message}`);
        reason = error instanceof Error ? error.message : String(error);
        throw refusal(reason);
      }
      const assertion = profile?.getAssertion?.().Assertion;
      if (!profile || !isNode(assertion)) throw new HttpError(401, 'The SAML response carries no assertion.');
      return this.identity(s, assertion, requestId);
    } catch (error) {
      if (s.debug && this.log) {
        const message = error instanceof Error ? error.message : String(error);
        this.log.warn({ component: 'sso', refused: message, reason: reason ?? message }, 'SAML response refused');
      }
      throw error;
    }
  }

  /** Who signed in, from the verified assertion, after the checks node-saml leaves to us. */
  private identity(s: SamlSettings, assertion: XmlNode, requestId: string) {
    const issuer = text(children(assertion, 'Issuer')[0]);
    if (s.idp.entityId && issuer !== s.idp.entityId)
      throw new HttpError(
        401,
        `The SAML assertion comes from ${issuer || 'an unnamed issuer'}, not from the identity provider in Settings → Single sign-on (${s.idp.entityId}).`,
      );
    const acs = s.sp.assertionConsumerService.url;
    const subject = elements(assertion, 'Subject')[0];
    const bearer = elements(subject, 'SubjectConfirmation')
      .filter((c) => attr(c, 'Method') === BEARER)
      .map((c) => elements(c, 'SubjectConfirmationData')[0]);
    const recipients = bearer.map((d) => attr(d, 'Recipient'));
    const wrong = recipients.find((r) => r !== undefined && r !== acs);
    if (wrong !== undefined || (s.strict && !recipients.includes(acs)))
      throw new HttpError(
        401,
        `The SAML assertion is for the recipient ${wrong ?? 'nobody named'}, not this server’s ACS (${acs}).`,
      );
    if (s.strict && !bearer.some((d) => attr(d, 'InResponseTo') === requestId))
      throw new HttpError(401, NOT_THIS_REQUEST);
    const assertionId = attr(assertion, 'ID');
    if (!assertionId) throw new HttpError(401, 'The SAML assertion has no ID: refused.');
    const ends = [
      attr(elements(assertion, 'Conditions')[0], 'NotOnOrAfter'),
      ...bearer.map((d) => attr(d, 'NotOnOrAfter')),
    ]
      .map((t) => (t ? Date.parse(t) : NaN))
      .filter((t) => !Number.isNaN(t));
    const validUntil = new Date(ends.length ? Math.min(...ends) + CLOCK_SKEW_MS : Date.now() + REQUEST_MS);

    const values = new Map<string, string[]>();
    for (const statement of elements(assertion, 'AttributeStatement'))
      for (const attribute of elements(statement, 'Attribute')) {
        const name = (attr(attribute, 'Name') ?? '').toLowerCase();
        const list = children(attribute, 'AttributeValue').map(text).filter(Boolean);
        values.set(name, [...(values.get(name) ?? []), ...list]);
      }
    const first = (names: string[]) => names.map((n) => values.get(n)?.[0]).find(Boolean);
    const nameId = text(elements(subject, 'NameID')[0]);
    const isEmail = (v: string | undefined): v is string => !!v && /^[^\s@]+@[^\s@]+$/.test(v);
    const email = isEmail(nameId) ? nameId : first(EMAIL_ATTRIBUTES);
    if (!isEmail(email))
      throw new HttpError(
        401,
        'The identity provider did not give an email address: send it as the NameID or as an email attribute.',
      );
    const groups = GROUP_ATTRIBUTES.flatMap((n) => values.get(n) ?? []).map((g) => /^cn=([^,]+),/i.exec(g)?.[1] ?? g);
    return { email, name: first(NAME_ATTRIBUTES) ?? null, groups: [...new Set(groups)], assertionId, validUntil };
  }

  /** This server's service-provider metadata, to register at the identity provider. */
  async metadata(): Promise<string> {
    const s = await this.settings.saml();
    const org = s.organization;
    const contacts = (['technical', 'support'] as const)
      .map((type) => ({ type, c: s.contactPerson[type] }))
      .filter(({ c }) => c.givenName || c.emailAddress)
      .map(({ type, c }) => ({
        '@contactType': type,
        ...(c.givenName ? { GivenName: c.givenName } : {}),
        ...(c.emailAddress ? { EmailAddress: [c.emailAddress] as [string] } : {}),
      }));
    const lang = (value: string) => [{ '@xml:lang': 'en', '#text': value }];
    const xml = generateServiceProviderMetadata({
      issuer: s.sp.entityId,
      callbackUrl: s.sp.assertionConsumerService.url,
      identifierFormat: s.sp.NameIDFormat || null,
      wantAssertionsSigned: s.strict || s.security.wantAssertionsSigned,
      // node-saml lists publicCerts only beside a privateKey (any string, '' too); signMetadata is off,
      // so the key itself is never used here.
      ...(s.sp.x509cert ? { privateKey: s.spPrivateKey, publicCerts: s.sp.x509cert } : {}),
      ...(org.name || org.displayname
        ? {
            metadataOrganization: {
              OrganizationName: lang(org.name || org.displayname),
              OrganizationDisplayName: lang(org.displayname || org.name),
              OrganizationURL: lang(org.url || (await this.settings.baseUrl())),
            },
          }
        : {}),
      ...(contacts.length ? { metadataContactPerson: contacts } : {}),
    });
    // node-saml says AuthnRequestsSigned whenever it has a key; say what begin() really does.
    return xml.replace(/AuthnRequestsSigned="(true|false)"/, `AuthnRequestsSigned="${signsRequests(s)}"`);
  }
}
