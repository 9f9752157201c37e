/**
 * Issue 16: recordings that whoever holds the data folder cannot forge. The chain's progress is
 * committed to the recording's row as it is written (recovery signs only that), the header's
 * SHA-256 is committed at start, live sessions are checkpointed with signatures
 * (recording_checkpoints: "at `at` the chain's entry `seq` had link `chain_head` and ended at
 * byte `bytes`"), and every signing key this installation used is listed with its fingerprint,
 * so a manifest signed with any other key is not intact (recording_signing_keys).
 */
export const sql = `
ALTER TABLE recordings ADD COLUMN header_sha256 text;
CREATE TABLE recording_checkpoints (
  recording_id uuid NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  bytes bigint NOT NULL,
  chain_head text NOT NULL,
  at timestamptz NOT NULL,
  signature text NOT NULL,
  PRIMARY KEY (recording_id, seq)
);
CREATE TABLE recording_signing_keys (
  fingerprint text PRIMARY KEY,
  public_key text NOT NULL,
  source text NOT NULL CHECK (source IN ('environment', 'file', 'data-folder')),
  first_used_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);
`;
