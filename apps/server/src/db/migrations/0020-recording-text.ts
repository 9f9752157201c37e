/**
 * Issue 16: search across every recording. recording_text holds each ended recording's text as
 * lines (terminal output with escape sequences stripped, typed input, commands, file-transfer
 * paths), filled from its cast file by recordings/text-index.ts; recording_text_state says which
 * recordings are indexed and which instance claimed one (several instances share the database:
 * the claim is one INSERT ... ON CONFLICT DO NOTHING, so exactly one indexes a recording).
 * A trigram index serves case-insensitive substring search (ILIKE) where pg_trgm exists: on
 * PostgreSQL with contrib, and on embedded PGlite, which loads it (db/client.ts). The session
 * list's trigram indexes of migration 0007 are made here too where that migration found no pg_trgm.
 */
export const sql = `
CREATE TABLE recording_text (
  recording_id uuid NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  t double precision NOT NULL,
  kind text NOT NULL,
  text text NOT NULL,
  PRIMARY KEY (recording_id, seq)
);
CREATE TABLE recording_text_state (
  recording_id uuid PRIMARY KEY REFERENCES recordings (id) ON DELETE CASCADE,
  claimed_by text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  indexed_at timestamptz,
  lines integer NOT NULL DEFAULT 0,
  truncated boolean NOT NULL DEFAULT false,
  error text
);
CREATE INDEX recording_text_state_pending_idx ON recording_text_state (claimed_at) WHERE indexed_at IS NULL;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE EXTENSION pg_trgm SCHEMA public;
  END IF;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): recording search scans', SQLERRM;
END $$;
DO $$
DECLARE
  ext_schema text;
BEGIN
  SELECT n.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  IF ext_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX recording_text_trgm_idx ON recording_text USING gin (text %I.gin_trgm_ops)', ext_schema);
    EXECUTE format('CREATE INDEX IF NOT EXISTS recordings_hostname_trgm_idx ON recordings USING gin (hostname %I.gin_trgm_ops)', ext_schema);
    EXECUTE format('CREATE INDEX IF NOT EXISTS recordings_user_email_trgm_idx ON recordings USING gin (user_email %I.gin_trgm_ops)', ext_schema);
    EXECUTE format('CREATE INDEX IF NOT EXISTS recordings_tunnel_trgm_idx ON recordings USING gin (definition_name %I.gin_trgm_ops)', ext_schema);
  END IF;
END $$;
`;
