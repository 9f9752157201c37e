/**
 * Issue 20: the audit screen, its export and streaming to a SIEM.
 * - The list pages by time with a keyset over (at, id), in both directions, filtered by action or
 *   outcome with composite indexes that keep the order; who, target and free text are
 *   case-insensitive substrings answered by trigram indexes where pg_trgm exists (migration 0007
 *   put it in; on PGlite they scan, which small installs do not notice).
 * - audit_sinks: one row per sink (syslog, webhook), shared by every instance: how far delivery got
 *   (delivered_id), the lease one instance holds while it sends (so two never send the same entries),
 *   the retry schedule and the last delivery and error the settings screen shows.
 */
export const sql = `
CREATE INDEX IF NOT EXISTS audit_log_at_idx ON audit_log (at, id);
CREATE INDEX IF NOT EXISTS audit_log_action_at_idx ON audit_log (action, at, id);
CREATE INDEX IF NOT EXISTS audit_log_outcome_at_idx ON audit_log (outcome, at, id);
DO $$
DECLARE
  ext_schema text;
BEGIN
  SELECT n.nspname INTO ext_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  IF ext_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS audit_log_actor_trgm_idx ON audit_log USING gin (actor %I.gin_trgm_ops)', ext_schema);
    EXECUTE format('CREATE INDEX IF NOT EXISTS audit_log_target_trgm_idx ON audit_log USING gin (target %I.gin_trgm_ops)', ext_schema);
    EXECUTE format('CREATE INDEX IF NOT EXISTS audit_log_text_trgm_idx ON audit_log USING gin ('
      || '(coalesce(actor, '''') || '' '' || action || '' '' || coalesce(target, '''') || '' '' || coalesce(source, '''') || '' '' || coalesce(detail::text, ''''))'
      || ' %I.gin_trgm_ops)', ext_schema);
  END IF;
END $$;
CREATE TABLE IF NOT EXISTS audit_sinks (
  sink text PRIMARY KEY,
  delivered_id bigint NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_delivery_at timestamptz,
  last_error text,
  last_error_at timestamptz
);
`;
