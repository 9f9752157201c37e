/**
 * Issue 15: honest status after a server instance stops or dies. Each running instance keeps a
 * row here and beats it every few seconds; an instance that stops marks its row gone, and one
 * silent too long is marked gone by another (cluster/instance-registry.ts). Agents and live
 * recordings name the instance holding them, so a recording whose instance is gone is recovered
 * at once and an agent whose instance is gone reads 'reconnecting' instead of 'connected'.
 */
export const sql = `
CREATE TABLE server_instances (
  id uuid PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  beat_at timestamptz NOT NULL DEFAULT now(),
  gone_at timestamptz
);
ALTER TABLE agents ADD COLUMN instance_id uuid;
ALTER TABLE recordings ADD COLUMN instance_id uuid;
CREATE INDEX recordings_live_instance_idx ON recordings (instance_id) WHERE ended_on IS NULL;
`;
