/**
 * Issue 17 item 4: recordings in S3-compatible object storage. `storage` says where a recording's
 * files are: 'local' (the data folder of the instance that recorded it; while live, its new bytes
 * also go to segment objects under object_key) or 's3' (final objects under object_key, the local
 * files removed). object_key is the key prefix of its objects, named at start when object storage
 * is configured, so another instance finds the segments of a recording whose instance died.
 */
export const sql = `
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS storage text NOT NULL DEFAULT 'local';
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS object_key text;
DO $$ BEGIN
  ALTER TABLE recordings ADD CONSTRAINT recordings_storage_check CHECK (storage IN ('local', 's3'));
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
CREATE INDEX IF NOT EXISTS recordings_to_upload_idx ON recordings (ended_on) WHERE storage = 'local' AND object_key IS NOT NULL;
`;
