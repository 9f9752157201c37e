/**
 * File transfers on the record and each session's kind. The gateway observes sftp channels and
 * legacy scp execs (gateway/transfers/) and writes each file operation twice: as a marker event in
 * the recording (inside its hash chain, the record) and as a row here (what the console lists and
 * search indexes). `kind` is what the session's first channel was; `command` an exec's command.
 */
export const sql = `
ALTER TABLE recordings ADD COLUMN kind text;
ALTER TABLE recordings ADD COLUMN command text;
CREATE INDEX recordings_kind_started_idx ON recordings (kind, started_on, id);
CREATE TABLE file_transfers (
  id bigserial PRIMARY KEY,
  recording_id uuid NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
  t double precision NOT NULL,
  protocol text NOT NULL,
  op text NOT NULL,
  path text NOT NULL,
  target text,
  direction text,
  bytes bigint NOT NULL DEFAULT 0,
  sha256 text,
  outcome text NOT NULL,
  note text,
  created_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX file_transfers_recording_idx ON file_transfers (recording_id, t, id);
`;
