/**
 * RDP video beside a recording: the bytes stored so far (the committed length of the file; bytes
 * past it are an interrupted write and are cut before the next piece), whether the agent sent the
 * last piece, and when the last piece came (a capture is live while pieces keep coming).
 */
export const sql = `
ALTER TABLE recordings ADD COLUMN video_bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE recordings ADD COLUMN video_final boolean NOT NULL DEFAULT false;
ALTER TABLE recordings ADD COLUMN video_at timestamptz;
`;
