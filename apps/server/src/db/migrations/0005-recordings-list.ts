/**
 * Keyset paging of the session list at a million rows: one index per sort and per filter, each
 * ending in (started_on, id) so pages continue where the last row left off.
 */
export const sql = `
DROP INDEX IF EXISTS recordings_started_idx;
CREATE INDEX recordings_started_keyset_idx ON recordings (started_on, id);
CREATE INDEX recordings_live_started_idx ON recordings (started_on, id) WHERE ended_on IS NULL;
CREATE INDEX recordings_type_started_idx ON recordings (type, started_on, id);
CREATE INDEX recordings_agent_started_idx ON recordings (agent_id, started_on, id);
CREATE INDEX recordings_user_started_idx ON recordings (user_email, started_on, id);
CREATE INDEX recordings_host_started_idx ON recordings (hostname, started_on, id);
CREATE INDEX recordings_tunnel_started_idx ON recordings (definition_name, started_on, id);
CREATE INDEX recordings_ended_keyset_idx ON recordings ((coalesce(ended_on, 'infinity'::timestamptz)), started_on, id);
`;
