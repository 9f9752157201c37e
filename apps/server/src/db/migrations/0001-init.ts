/** First schema: identity, tokens, sign-in guards, audit trail and settings. */
export const sql = `
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE,
  name text,
  photo_url text,
  password_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE roles (
  name text PRIMARY KEY,
  builtin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE role_permissions (
  role_name text NOT NULL REFERENCES roles(name) ON DELETE CASCADE ON UPDATE CASCADE,
  permission text NOT NULL,
  PRIMARY KEY (role_name, permission)
);
CREATE TABLE user_roles (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role_name text NOT NULL REFERENCES roles(name) ON DELETE CASCADE ON UPDATE CASCADE,
  PRIMARY KEY (user_id, role_name)
);
CREATE INDEX user_roles_role_idx ON user_roles (role_name);
CREATE TABLE auth_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL DEFAULT 'session',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX auth_tokens_user_idx ON auth_tokens (user_id);
CREATE INDEX auth_tokens_expiry_idx ON auth_tokens (expires_at);
CREATE TABLE login_failures (
  email_key text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  last_failure_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz
);
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id uuid,
  actor text,
  action text NOT NULL,
  target text,
  outcome text NOT NULL,
  status smallint,
  source text,
  detail jsonb
);
CREATE INDEX audit_log_action_idx ON audit_log (action, id);
CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`;
