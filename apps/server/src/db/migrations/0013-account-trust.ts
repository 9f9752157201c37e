/**
 * Accounts that cannot be hijacked (issue 14, item 8). Self sign-ups start unverified
 * (email_verified false) until their one-time link is opened; every other account (the first
 * administrator, those an administrator creates, those a directory or identity provider creates)
 * is verified by whoever made it, so existing rows count as verified. Verification links are
 * stored as SHA-256 and used once. last_external_sign_in_at is the last successful directory or
 * single sign-on sign-in: with single sign-on on, SSH keys are honoured only for some hours after
 * it. external_group_members and external_role_holders record which memberships and roles a
 * directory or identity provider gave, so they are removed when it stops sending them while the
 * ones given here stay.
 */
export const sql = `
ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT true;
ALTER TABLE users ADD COLUMN last_external_sign_in_at timestamptz;
CREATE TABLE email_verifications (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_verifications_user_idx ON email_verifications (user_id);
CREATE TABLE external_group_members (
  group_name text NOT NULL REFERENCES groups(name) ON DELETE CASCADE ON UPDATE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (group_name, user_id)
);
CREATE INDEX external_group_members_user_idx ON external_group_members (user_id);
CREATE TABLE external_role_holders (
  role_name text NOT NULL REFERENCES roles(name) ON DELETE CASCADE ON UPDATE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (role_name, user_id)
);
CREATE INDEX external_role_holders_user_idx ON external_role_holders (user_id);
`;
