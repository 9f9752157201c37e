/** Sessions and their recordings; the pinned host key of each ssh definition. */
export const sql = `
CREATE TABLE recordings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type text NOT NULL CHECK (type IN ('ssh', 'rdp', 'generic', 'agent')),
  agent_id uuid REFERENCES agents(id) ON DELETE SET NULL,
  hostname text NOT NULL,
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  user_email text NOT NULL,
  definition_id uuid REFERENCES tunnel_definitions(id) ON DELETE SET NULL,
  definition_name text,
  started_on timestamptz NOT NULL DEFAULT now(),
  ended_on timestamptz,
  last_flush_at timestamptz NOT NULL DEFAULT now(),
  has_video boolean NOT NULL DEFAULT false,
  width integer,
  height integer,
  storage_path text NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  chunks integer NOT NULL DEFAULT 0,
  chain_head text,
  manifest jsonb,
  end_reason text,
  terminated_by text
);
CREATE INDEX recordings_started_idx ON recordings (started_on DESC, id);
CREATE INDEX recordings_live_idx ON recordings (last_flush_at) WHERE ended_on IS NULL;
ALTER TABLE tunnel_definitions ADD COLUMN host_key text;
`;
