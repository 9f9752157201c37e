/** Agent credentials and host configuration; tunnel definitions and who may use them. */
export const sql = `
ALTER TABLE agents ADD COLUMN credential_hash text UNIQUE;
ALTER TABLE agents ADD COLUMN config jsonb;
ALTER TABLE agents ADD COLUMN registered_with uuid;
CREATE TABLE tunnel_definitions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type text NOT NULL CHECK (type IN ('ssh', 'rdp', 'generic', 'agent')),
  name text NOT NULL,
  agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  group_name text REFERENCES groups(name) ON DELETE SET NULL ON UPDATE CASCADE,
  ssh_login text,
  ssh_auth text CHECK (ssh_auth IN ('key', 'password')),
  credential_sealed text,
  public_key text,
  allow_port_forwarding boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tunnel_definitions_agent_idx ON tunnel_definitions (agent_id);
CREATE TABLE tunnel_definition_users (
  definition_id uuid NOT NULL REFERENCES tunnel_definitions(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (definition_id, user_id)
);
CREATE INDEX tunnel_definition_users_user_idx ON tunnel_definition_users (user_id);
CREATE TABLE tunnel_definition_agents (
  definition_id uuid NOT NULL REFERENCES tunnel_definitions(id) ON DELETE CASCADE,
  agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  PRIMARY KEY (definition_id, agent_id)
);
`;
