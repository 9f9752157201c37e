/** Identity administration: groups (nested), agents they hold, registration keys, SSH keys, reset tokens. */
export const sql = `
CREATE TABLE agents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  hostname text NOT NULL,
  os smallint NOT NULL DEFAULT 1,
  version text,
  connected boolean NOT NULL DEFAULT false,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agents_hostname_idx ON agents (hostname);
CREATE TABLE groups (
  name text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX groups_name_ci_idx ON groups (lower(name));
CREATE TABLE group_users (
  group_name text NOT NULL REFERENCES groups(name) ON DELETE CASCADE ON UPDATE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (group_name, user_id)
);
CREATE INDEX group_users_user_idx ON group_users (user_id);
CREATE TABLE group_agents (
  group_name text NOT NULL REFERENCES groups(name) ON DELETE CASCADE ON UPDATE CASCADE,
  agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  PRIMARY KEY (group_name, agent_id)
);
CREATE INDEX group_agents_agent_idx ON group_agents (agent_id);
CREATE TABLE group_groups (
  parent text NOT NULL REFERENCES groups(name) ON DELETE CASCADE ON UPDATE CASCADE,
  child text NOT NULL REFERENCES groups(name) ON DELETE CASCADE ON UPDATE CASCADE,
  PRIMARY KEY (parent, child),
  CHECK (parent <> child)
);
CREATE INDEX group_groups_child_idx ON group_groups (child);
CREATE TABLE api_keys (
  uuid uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  description text NOT NULL,
  permissions text[] NOT NULL DEFAULT '{}',
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text,
  last_used_at timestamptz
);
CREATE TABLE user_ssh_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  key_type text NOT NULL,
  public_key text NOT NULL,
  fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  UNIQUE (user_id, fingerprint)
);
CREATE TABLE password_reset_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);
CREATE INDEX users_name_idx ON users (lower(name));
`;
