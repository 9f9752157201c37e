import { SECOND_FACTOR_SECONDS } from '@gatehouse/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http/errors.js';
import type { AuthService } from '../auth/auth.service.js';
import type { Principal } from '../auth/principal.js';
import { hashToken, newToken } from '../auth/tokens.js';
import type { SecondFactorProof } from '../two-factor/two-factor.service.js';
import type { RelyingParty } from '../two-factor/webauthn.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { ExternalAccounts, ExternalIdentity } from './external-accounts.js';
import type { OidcService } from './oidc.service.js';
import { callbackUrls, type SsoConfigService } from './sso-config.service.js';
import type { SsoFlowsRepository, SsoPurposeName } from './sso-flows.repository.js';

/** Cookie that ties a flow to the browser that began it (checked where the browser sends it back). */
export const BINDING_COOKIE = 'gh_sso_flow';
/** Cookie that carries a completed sign-on to GET /sso/token. */
export const DONE_COOKIE = 'gh_sso_done';
const FLOW_SECONDS = 600;
const HANDOFF_SECONDS = 120;
const STEP_GONE = 'This re-authorization expired or was finished already: authorize again at your identity provider.';

/** The SAML side of single sign-on (saml.service.ts). */
export interface SamlDriver {
  /** The IdP address with the AuthnRequest, and what the ACS must check (the request id). */
  begin(relayState: string): Promise<{ redirectUrl: string; data: Record<string, string> }>;
  /** Checks a posted SAMLResponse against the flow's data; who signed in, and the assertion's id and end. */
  complete(
    samlResponse: string,
    data: Record<string, string>,
  ): Promise<ExternalIdentity & { assertionId: string; validUntil: Date }>;
  /** This server's service-provider metadata (XML), to register at the identity provider. */
  metadata(): Promise<string>;
}

/** Reads one cookie from a request (no cookie plugin: two cookies are all single sign-on uses). */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

function cookie(request: FastifyRequest, name: string, value: string, maxAge: number, path = '/'): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * Single sign-on flows (spec §2.1, §2.8, §4): begin one (to sign in, or to re-authorize the
 * signed-in user in the popup), finish it at the OIDC callback or the SAML ACS, and hand the
 * result to the console once through GET /sso/token. Every step's state is in the database, so
 * the steps may land on different instances.
 */
export class SsoFlowService {
  constructor(
    private readonly config: SsoConfigService,
    private readonly flows: SsoFlowsRepository,
    private readonly oidc: OidcService,
    private readonly saml: SamlDriver,
    private readonly accounts: ExternalAccounts,
    private readonly auth: AuthService,
    private readonly users: UsersRepository,
  ) {}

  async start(
    purpose: SsoPurposeName,
    principal: Principal | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ redirect_url: string }> {
    const type = await this.config.authType();
    if (type !== 2 && type !== 3)
      throw new HttpError(400, 'Single sign-on is not configured here: sign in with your email and password.');
    if (purpose === 'authorize' && !principal)
      throw new HttpError(401, 'Sign in first: re-authorizing needs your current token.');
    const id = newToken();
    const binding = newToken();
    const urls = callbackUrls(await this.config.baseUrl());
    const begun = type === 3 ? await this.oidc.begin(id, urls.oidc_redirect_uri) : await this.saml.begin(id);
    await this.flows.putFlow(
      hashToken(id),
      {
        protocol: type === 3 ? 'oidc' : 'saml',
        purpose,
        requesterId: principal?.userId ?? null,
        bindingHash: hashToken(binding),
        data: { ...begun.data, ...(principal ? { requesterTokenHash: principal.tokenHash } : {}) },
      },
      new Date(Date.now() + FLOW_SECONDS * 1000),
    );
    void reply.header('set-cookie', cookie(request, BINDING_COOKIE, binding, FLOW_SECONDS));
    return { redirect_url: begun.redirectUrl };
  }

  /** GET /sso/oidc/callback: the provider sends the browser back with a code (or an error). */
  async oidcCallback(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    return this.finish(reply, async () => {
      const query = request.query as Record<string, unknown>;
      const state = typeof query.state === 'string' ? query.state : '';
      const flow = state ? await this.flows.takeFlow(hashToken(state)) : undefined;
      if (typeof query.error === 'string' && !flow)
        throw new HttpError(401, `The identity provider refused the sign-in: ${query.error}`);
      if (!flow || flow.protocol !== 'oidc')
        throw new HttpError(
          401,
          'This sign-in has expired, was already used, or its state does not match: start it again.',
        );
      const binding = cookieOf(request, BINDING_COOKIE);
      if (!binding || hashToken(binding) !== flow.bindingHash)
        throw new HttpError(401, 'This sign-in was started in another browser: start it again here.');
      const base = await this.config.baseUrl();
      const current = new URL(request.url, base);
      const identity = await this.oidc.complete(current, state, flow.data);
      return { identity, flow };
    });
  }

  /** POST /saml/acs: the IdP posts the signed response, with the flow in RelayState. */
  async samlAcs(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    return this.finish(reply, async () => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const relay = typeof form.RelayState === 'string' ? form.RelayState : '';
      const response = typeof form.SAMLResponse === 'string' ? form.SAMLResponse : '';
      if (!response) throw new HttpError(400, 'No SAMLResponse was posted.');
      const flow = relay ? await this.flows.takeFlow(hashToken(relay)) : undefined;
      if (!flow || flow.protocol !== 'saml')
        throw new HttpError(
          401,
          'This sign-in has expired or was already used (unsolicited responses are refused): start it again.',
        );
      const result = await this.saml.complete(response, flow.data);
      if (!(await this.flows.firstUseOfAssertion(result.assertionId, result.validUntil)))
        throw new HttpError(401, 'This SAML assertion was used already: a replay is refused. Sign in again.');
      return { identity: result, flow };
    });
  }

  /**
   * Provisions the account, records the completed sign-on for GET /sso/token and sends the
   * browser to the console's /sso screen; any refusal goes there as ?error=.
   */
  private async finish(
    reply: FastifyReply,
    check: () => Promise<{
      identity: ExternalIdentity;
      flow: { purpose: SsoPurposeName; requesterId: string | null; data: Record<string, string> };
    }>,
  ): Promise<FastifyReply> {
    const base = await this.config.baseUrl();
    try {
      const { identity, flow } = await check();
      const user = await this.accounts.provision(identity);
      if (flow.purpose === 'authorize' && user.id !== flow.requesterId) {
        const requester = flow.requesterId ? await this.users.findById(flow.requesterId) : undefined;
        throw new HttpError(
          403,
          `You signed in at the identity provider as ${user.email}, but this console is signed in as ` +
            `${requester?.email ?? 'someone else'}: authorize as that user.`,
        );
      }
      const code = newToken();
      await this.flows.putHandoff(
        hashToken(code),
        { userId: user.id, purpose: flow.purpose, requesterTokenHash: flow.data.requesterTokenHash ?? null },
        new Date(Date.now() + HANDOFF_SECONDS * 1000),
      );
      void reply.header('set-cookie', [
        cookie(reply.request, DONE_COOKIE, code, HANDOFF_SECONDS, '/sso/token'),
        cookie(reply.request, BINDING_COOKIE, '', 0),
      ]);
      return reply.redirect(`${base}/#/sso`, 303);
    } catch (error) {
      if (!(error instanceof HttpError)) reply.log.error({ err: error }, 'single sign-on failed');
      const message =
        error instanceof HttpError ? error.message : 'Single sign-on failed on the server: see the api log.';
      reply.request.auditNote.detail = { refused: message };
      return reply.redirect(`${base}/#/sso?error=${encodeURIComponent(message)}`, 303);
    }
  }

  /** GET /sso/token: the completed sign-on in this browser, once. */
  async token(request: FastifyRequest, reply: FastifyReply) {
    const code = cookieOf(request, DONE_COOKIE);
    const done = code ? await this.flows.takeHandoff(hashToken(code)) : undefined;
    void reply.header('set-cookie', cookie(request, DONE_COOKIE, '', 0, '/sso/token'));
    if (!done) throw new HttpError(401, 'No completed single sign-on in this browser, or it expired: sign in again.');
    const user = await this.users.findById(done.userId);
    if (!user) throw new HttpError(401, 'That account no longer exists.');
    if (done.purpose === 'signin')
      return {
        purpose: 'signin' as const,
        kind: 'session' as const,
        response: { user: await this.auth.issueToken(user) },
      };
    // A single sign-on proves one factor; someone with a second factor proves it too (issue 20), in
    // POST /sso/second-factor from the session that started this, within the step's few minutes.
    const methods = this.auth.twoFactor ? await this.auth.twoFactor.methods(user.id) : [];
    if (methods.length > 0) {
      if (!done.requesterTokenHash) throw new HttpError(401, 'Sign in first: re-authorizing needs your current token.');
      const step = newToken();
      const expiresAt = new Date(Date.now() + SECOND_FACTOR_SECONDS * 1000);
      await this.flows.putPendingFactor(
        hashToken(step),
        { userId: user.id, requesterTokenHash: done.requesterTokenHash },
        expiresAt,
      );
      return {
        purpose: 'authorize' as const,
        kind: 'second-factor' as const,
        second_factor: { step, methods, expires_at: expiresAt.toISOString() },
      };
    }
    const grant = await this.auth.grantReauthorization(user.id, done.requesterTokenHash);
    const session = await this.auth.signedInUser(user, grant.token, new Date(grant.expires_at));
    return { purpose: 'authorize' as const, kind: grant.kind, response: { user: session } };
  }

  /**
   * POST /sso/second-factor: the second factor of a single sign-on re-authorization. The step must be
   * this user's and this session token's; the factor is checked as a password re-authorization's is
   * (same limits and lockout), then the step is used up (by exactly one caller) and the
   * re-authorization granted.
   */
  async secondFactor(
    principal: Principal,
    body: { step: string } & SecondFactorProof,
    source: string,
    rp: RelyingParty | undefined,
  ) {
    const stepHash = hashToken(body.step);
    const pending = await this.flows.pendingFactor(stepHash);
    if (!pending || !this.auth.twoFactor) throw new HttpError(401, STEP_GONE);
    if (pending.userId !== principal.userId || pending.requesterTokenHash !== principal.tokenHash)
      throw new HttpError(
        403,
        'This re-authorization was started by another session: authorize again from this console window.',
      );
    await this.auth.twoFactor.verify({ id: principal.userId, email: principal.email }, body, source, rp);
    if (!(await this.flows.takePendingFactor(stepHash, principal.userId, principal.tokenHash)))
      throw new HttpError(401, STEP_GONE);
    return this.auth.grantReauthorization(
      principal.userId,
      principal.tokenKind === 'session' ? principal.tokenHash : null,
    );
  }
}
