/**
 * Issue 18: RDP through tunnels is filmed or refused, never silently unfilmed.
 * - recordings.video_state: how the agent's capture of that session stands (waiting, filming,
 *   stopped, failed, unsupported, as the agent reports it) or 'not-filmed' (the server found it
 *   could not be filmed and the definition allowed it, or refused it); null: never asked (ssh,
 *   generic, agent tunnels, and recordings older than this migration).
 * - recordings.video_note: why, in at most 500 characters with no control characters.
 * - agents.capture_error / capture_error_at: the host's last capture failure, for the Agents screen
 *   (how many sessions are filmed now is counted from recordings: video_state 'filming', live).
 * - tunnel_definitions.unfilmed_rdp: what an rdp definition does with a session the agent cannot
 *   film: 'refuse' (the default) closes it, 'allow' lets it go on marked not filmed.
 */
export const sql = `
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS video_state text;
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS video_note text;
DO $$ BEGIN
  ALTER TABLE recordings ADD CONSTRAINT recordings_video_state_check
    CHECK (video_state IN ('waiting', 'filming', 'stopped', 'failed', 'unsupported', 'not-filmed'));
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
DO $$ BEGIN
  ALTER TABLE recordings ADD CONSTRAINT recordings_video_note_length CHECK (char_length(video_note) <= 500);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
CREATE INDEX IF NOT EXISTS recordings_filming_idx ON recordings (agent_id) WHERE video_state = 'filming' AND ended_on IS NULL;
ALTER TABLE agents ADD COLUMN IF NOT EXISTS capture_error text;
ALTER TABLE agents ADD COLUMN IF NOT EXISTS capture_error_at timestamptz;
ALTER TABLE tunnel_definitions ADD COLUMN IF NOT EXISTS unfilmed_rdp text NOT NULL DEFAULT 'refuse';
DO $$ BEGIN
  ALTER TABLE tunnel_definitions ADD CONSTRAINT tunnel_definitions_unfilmed_rdp_check CHECK (unfilmed_rdp IN ('refuse', 'allow'));
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
`;
