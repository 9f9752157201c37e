/**
 * Issue 20: two-factor sign-in.
 * - roles.require_two_factor: an administrator's choice; a holder must enrol a second factor
 *   before anything else.
 * - user_totp: the authenticator app's seed, sealed with the secret box; confirmed once the user
 *   proved a code; last_step is the last time step accepted (a code is never accepted twice).
 * - user_recovery_codes: SHA-256 of each code (80 random bits), used up one by one.
 * - user_passkeys: WebAuthn credentials (public key, signature counter).
 * - webauthn_challenges: one challenge per ceremony, shared by instances, used up once.
 */
export const sql = `
ALTER TABLE roles ADD COLUMN IF NOT EXISTS require_two_factor boolean NOT NULL DEFAULT false;
CREATE TABLE IF NOT EXISTS user_totp (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_sealed text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS user_recovery_codes (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);
CREATE TABLE IF NOT EXISTS user_passkeys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text NOT NULL DEFAULT '[]',
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX IF NOT EXISTS user_passkeys_user_idx ON user_passkeys (user_id);
CREATE TABLE IF NOT EXISTS webauthn_challenges (
  id text PRIMARY KEY,
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('register', 'verify', 'sign-in')),
  challenge text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS webauthn_challenges_expiry_idx ON webauthn_challenges (expires_at);
`;
