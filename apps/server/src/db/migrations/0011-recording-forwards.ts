/**
 * SSH port forwarding on the record: the targets (host:port) a session forwarded to with ssh -L,
 * listed in Sessions. Each forwarded channel's opening, byte counts and closing are in the
 * recording itself (hash-chained); this column is what the list shows and filters by.
 */
export const sql = `
ALTER TABLE recordings ADD COLUMN forwards text[] NOT NULL DEFAULT '{}';
`;
