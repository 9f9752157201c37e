/**
 * Single sign-on: flows begun and not yet finished (OIDC state with its PKCE verifier and nonce,
 * SAML request ids), completed sign-ons waiting for the console to fetch their token, and the SAML
 * assertion ids already accepted (each only once). Every instance shares them; each row is used up
 * by deleting it, so exactly one caller gets it.
 */
export const sql = `
CREATE TABLE sso_flows (
  id_hash text PRIMARY KEY,
  protocol text NOT NULL,
  purpose text NOT NULL,
  requester_id uuid REFERENCES users(id) ON DELETE CASCADE,
  binding_hash text NOT NULL,
  data jsonb NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_flows_expiry_idx ON sso_flows (expires_at);
CREATE TABLE sso_handoffs (
  code_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL,
  requester_token_hash text,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_handoffs_expiry_idx ON sso_handoffs (expires_at);
CREATE TABLE sso_seen_assertions (
  assertion_id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_seen_assertions_expiry_idx ON sso_seen_assertions (expires_at);
`;
