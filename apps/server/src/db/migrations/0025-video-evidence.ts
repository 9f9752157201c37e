/**
 * Issue 18 item 3: the RDP video inside the evidence. Every committed piece of a recording's video
 * gets a row: where it lies (byte_offset, length), its SHA-256, and its link in the video's chain
 * (chain.ts videoChainNext). The recording row keeps the count and the last link (committed in the
 * same transaction as the piece) and, once final (or cut by the sweep), the signed video manifest.
 */
export const sql = `
CREATE TABLE IF NOT EXISTS recording_video_pieces (
  recording_id uuid NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  byte_offset bigint NOT NULL,
  length integer NOT NULL,
  sha256 text NOT NULL,
  chain text NOT NULL,
  PRIMARY KEY (recording_id, seq)
);
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS video_pieces integer NOT NULL DEFAULT 0;
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS video_chain_head text;
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS video_manifest jsonb;
CREATE INDEX IF NOT EXISTS recordings_video_unsigned_idx ON recordings (video_at)
  WHERE video_bytes > 0 AND video_manifest IS NULL;
`;
