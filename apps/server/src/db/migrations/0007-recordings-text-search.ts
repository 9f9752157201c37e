/**
 * The session list's text filter (hostname, user email or tunnel name containing q, ILIKE) read
 * every row at a million recordings when few or none matched: 0.6 s to 2.9 s (docs/benchmarks.md).
 * Trigram indexes answer it from the index. pg_trgm is a contrib extension (trusted since
 * PostgreSQL 13), put in public once per database; where it cannot be had (embedded PGlite, a
 * server without contrib) the filter keeps working as a scan, small installs do not need more.
 */
export const sql = `
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE EXTENSION pg_trgm SCHEMA public;
  END IF;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): the session list text filter scans', SQLERRM;
END $$;
DO $$
DECLARE
  ext_schema text;
BEGIN
  SELECT n.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  IF ext_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX recordings_hostname_trgm_idx ON recordings USING gin (hostname %I.gin_trgm_ops)', ext_schema);
    EXECUTE format('CREATE INDEX recordings_user_email_trgm_idx ON recordings USING gin (user_email %I.gin_trgm_ops)', ext_schema);
    EXECUTE format('CREATE INDEX recordings_tunnel_trgm_idx ON recordings USING gin (definition_name %I.gin_trgm_ops)', ext_schema);
  END IF;
END $$;
`;
