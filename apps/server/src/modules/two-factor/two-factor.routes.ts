import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';
import { relyingPartyFor } from './relying-party.js';

type TwoFactorHandlers = Pick<
  Handlers,
  | 'twoFactorStatus'
  | 'startTotp'
  | 'confirmTotp'
  | 'removeTotp'
  | 'newRecoveryCodes'
  | 'passkeyRegistrationOptions'
  | 'addPasskey'
  | 'removePasskey'
  | 'secondFactorPasskeyOptions'
  | 'secondFactor'
  | 'passkeySignInOptions'
  | 'passkeySignIn'
>;

/** Handlers of the two-factor calls (issue 20). Nothing here answers a stored secret. */
export function twoFactorHandlers(s: Services, config: { publicUrl?: string | undefined }): TwoFactorHandlers {
  const tf = s.twoFactor;
  const rp = async (request: FastifyRequest) =>
    relyingPartyFor((await s.settings.get()).public_url || config.publicUrl, request);
  const me = (p: { userId: string; email: string; name: string | null }) => ({
    id: p.userId,
    email: p.email,
    name: p.name,
  });
  return {
    twoFactorStatus: ({ principal }) => tf.status(principal.userId),
    startTotp: ({ principal }) => tf.startTotp(me(principal)),
    confirmTotp: ({ principal, body, request }) => tf.confirmTotp(me(principal), body.code, request.ip),
    removeTotp: ({ principal }) => tf.removeTotp(principal.userId),
    newRecoveryCodes: ({ principal }) => tf.renewCodesOnRequest(principal.userId),
    passkeyRegistrationOptions: async ({ principal, request }) =>
      tf.webauthn.registrationOptions(me(principal), await rp(request)),
    addPasskey: async ({ principal, body, request }) => {
      const answer = await tf.addPasskey(me(principal), await rp(request), body);
      request.auditNote.target = answer.passkey.id;
      return answer;
    },
    removePasskey: ({ principal, params, request }) => {
      request.auditNote.target = params.id;
      return tf.removePasskey(principal.userId, params.id);
    },
    secondFactorPasskeyOptions: async ({ principal, request }) =>
      tf.webauthn.authenticationOptions(await rp(request), principal.userId),
    secondFactor: async ({ principal, body, request }) => {
      request.auditNote.detail = { method: body.passkey ? 'passkey' : 'code' };
      const user = await s.auth.completeSecondFactor(principal, body, request.ip, await rp(request));
      return { response: { user } };
    },
    passkeySignInOptions: async ({ request }) => {
      await s.auth.limitSignInAddress(request.ip);
      return tf.webauthn.authenticationOptions(await rp(request), null);
    },
    passkeySignIn: async ({ body, request }) => {
      const user = await s.auth.passkeySignIn(body, request.ip, await rp(request));
      request.auditNote.actor = user.email;
      return { response: { user } };
    },
  };
}
