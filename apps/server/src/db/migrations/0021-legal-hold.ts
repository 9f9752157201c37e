/**
 * Issue 16 item 5: legal hold. A recording on hold is never removed by retention (its sweep selects
 * and deletes only rows with legal_hold = false); who placed it, when and why are kept beside it,
 * and each placing and lifting is in the audit trail. The partial index keeps the hold filter and
 * retention's count of held recordings cheap.
 */
export const sql = `
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS legal_hold boolean NOT NULL DEFAULT false;
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS legal_hold_by text;
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS legal_hold_at timestamptz;
ALTER TABLE recordings ADD COLUMN IF NOT EXISTS legal_hold_reason text;
CREATE INDEX IF NOT EXISTS recordings_legal_hold_idx ON recordings (started_on DESC, id DESC) WHERE legal_hold;
`;
