import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { TestServer } from './harness.js';

/** The code an authenticator app shows for this secret, `steps` periods from now. */
export function codeFor(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Lets the next code of the same time step count again (tests that are not about replay). */
export async function forgetLastStep(server: TestServer, email: string): Promise<void> {
  await server.services.database.query(
    `UPDATE user_totp SET last_step = NULL WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
    [email],
  );
}

/** Enrols an authenticator app for the holder of `token`; answers its secret and the recovery codes. */
export async function enrolTotp(server: TestServer, token: string) {
  const started = await server.call<{ secret: string; otpauth_uri: string }>('POST', '/api/user/two-factor/totp', {
    token,
  });
  expect(started.status).toBe(200);
  const confirmed = await server.call<{ recovery_codes?: string[] }>('POST', '/api/user/two-factor/totp/confirm', {
    token,
    body: { code: codeFor(started.body.secret) },
  });
  expect(confirmed.status).toBe(200);
  return { secret: started.body.secret, uri: started.body.otpauth_uri, recovery: confirmed.body.recovery_codes ?? [] };
}
