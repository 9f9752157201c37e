import { required } from '../body';
import { MockError, type MockContext, type NamedHandler, route } from '../http';

/** A fixed example secret: mock data never protects anything. */
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = ['abcd-efgh-jkmn-pqrs', 'tuvw-xyz2-3456-789a', 'bcde-fghj-kmnp-qrst', 'uvwx-yz23-4567-89ab'];
const NO_PASSKEYS = 'Passkeys need the real server: mock data cannot check a browser’s signature.';

/** Two-factor sign-in over mock data: an authenticator app that takes any six digits, no passkeys. */
export function twoFactorHandlers(context: MockContext): NamedHandler[] {
  let totp = false;
  let codesLeft = 0;
  return [
    route(context, 'twoFactorStatus', () => ({ totp, passkeys: [], recovery_codes_left: codesLeft, required: false })),
    route(context, 'startTotp', () => {
      if (totp) throw new MockError(409, 'An authenticator app is set up already. Remove it first to set up another.');
      return { secret: SECRET, otpauth_uri: `otpauth://totp/Gatehouse:mock?issuer=Gatehouse&secret=${SECRET}` };
    }),
    route(context, 'confirmTotp', ({ body }) => {
      const code = required(body, 'code', 'Enter the code from your authenticator app or a recovery code');
      if (!/^\d{6}$/.test(code)) throw new MockError(400, 'That code is not right.');
      totp = true;
      codesLeft = CODES.length;
      return { message: 'Your authenticator app is set up.', recovery_codes: CODES };
    }),
    route(context, 'removeTotp', () => {
      totp = false;
      codesLeft = 0;
      return { message: 'The authenticator app was removed.' };
    }),
    route(context, 'newRecoveryCodes', () => {
      codesLeft = CODES.length;
      return { recovery_codes: CODES };
    }),
    route(context, 'passkeyRegistrationOptions', () => {
      throw new MockError(400, NO_PASSKEYS);
    }),
    route(context, 'addPasskey', () => {
      throw new MockError(400, NO_PASSKEYS);
    }),
    route(context, 'removePasskey', () => {
      throw new MockError(404, 'You have no passkey with that id.');
    }),
    route(context, 'secondFactorPasskeyOptions', () => {
      throw new MockError(409, NO_PASSKEYS);
    }),
    route(context, 'secondFactor', () => {
      throw new MockError(403, 'Mock data signs in without a second factor.');
    }),
    route(context, 'passkeySignInOptions', () => {
      throw new MockError(400, NO_PASSKEYS);
    }),
    route(context, 'passkeySignIn', () => {
      throw new MockError(400, NO_PASSKEYS);
    }),
  ];
}
