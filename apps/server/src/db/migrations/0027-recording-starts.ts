/**
 * Issue 19: the dashboard at a million recordings. It counted sessions started per quarter hour over
 * every recording on each call (470/516 ms p50/p95). recording_starts keeps those counts instead:
 * one row per quarter hour (date_bin from 2000-01-01 UTC, as RecordingsRepository.startsPerQuarterHour
 * bins), changed by triggers in the same transaction as the recordings written, deleted (retention),
 * re-timed or truncated, so every instance sharing the database, and embedded PGlite, sees counts
 * that are exactly the rows committed. Statement-level triggers with transition tables: one upsert
 * per statement (a bulk insert or a retention pass costs one grouped statement), buckets taken in
 * order so two writers lock them in the same order. A bucket whose count falls to zero goes.
 * CREATE TRIGGER locks recordings against writes until this migration commits, so the backfill
 * below counts exactly the rows the triggers will not see.
 * Long-running sessions (at least 24 hours) are few: a partial index finds the ended ones, the
 * live ones already have theirs (recordings_live_started_idx, migration 0005).
 */
export const sql = `
CREATE TABLE recording_starts (
  bucket timestamptz PRIMARY KEY,
  sessions integer NOT NULL
);
CREATE FUNCTION gatehouse_recording_starts_add(deltas recording_starts[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO recording_starts AS r (bucket, sessions)
  SELECT d.bucket, sum(d.sessions)::int FROM unnest(deltas) AS d GROUP BY d.bucket HAVING sum(d.sessions) <> 0 ORDER BY d.bucket
  ON CONFLICT (bucket) DO UPDATE SET sessions = r.sessions + EXCLUDED.sessions;
  DELETE FROM recording_starts r USING unnest(deltas) AS d WHERE r.bucket = d.bucket AND r.sessions <= 0;
END $$;
CREATE FUNCTION gatehouse_recording_starts_bucket(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', at, timestamptz '2000-01-01 00:00:00+00')
$$;
CREATE FUNCTION gatehouse_recording_starts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM gatehouse_recording_starts_add(ARRAY(
    SELECT ROW(b, n)::recording_starts
    FROM (SELECT gatehouse_recording_starts_bucket(started_on) AS b, count(*)::int AS n FROM changed_rows GROUP BY 1) AS g));
  RETURN NULL;
END $$;
CREATE FUNCTION gatehouse_recording_starts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM gatehouse_recording_starts_add(ARRAY(
    SELECT ROW(b, -n)::recording_starts
    FROM (SELECT gatehouse_recording_starts_bucket(started_on) AS b, count(*)::int AS n FROM changed_rows GROUP BY 1) AS g));
  RETURN NULL;
END $$;
CREATE FUNCTION gatehouse_recording_starts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM gatehouse_recording_starts_add(ARRAY[
    ROW(gatehouse_recording_starts_bucket(OLD.started_on), -1)::recording_starts,
    ROW(gatehouse_recording_starts_bucket(NEW.started_on), 1)::recording_starts]);
  RETURN NULL;
END $$;
CREATE FUNCTION gatehouse_recording_starts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM recording_starts;
  RETURN NULL;
END $$;
CREATE TRIGGER recordings_starts_insert AFTER INSERT ON recordings REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_recording_starts_inserted();
CREATE TRIGGER recordings_starts_delete AFTER DELETE ON recordings REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_recording_starts_deleted();
CREATE TRIGGER recordings_starts_update AFTER UPDATE OF started_on ON recordings
  FOR EACH ROW WHEN (OLD.started_on IS DISTINCT FROM NEW.started_on)
  EXECUTE FUNCTION gatehouse_recording_starts_moved();
CREATE TRIGGER recordings_starts_truncate AFTER TRUNCATE ON recordings
  FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_recording_starts_truncated();
INSERT INTO recording_starts (bucket, sessions)
  SELECT gatehouse_recording_starts_bucket(started_on), count(*)::int FROM recordings GROUP BY 1;
CREATE INDEX recordings_long_ended_idx ON recordings (started_on)
  WHERE ended_on - started_on >= interval '24 hours';
`;
