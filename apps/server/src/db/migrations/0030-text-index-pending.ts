/**
 * Issue 19: the search index's trigram GIN index keeps a pending list of at most 256 kB instead of
 * the server's default 4 MB. Inserted lines first go to that list, and the insert that fills it
 * merges the whole list into the index: on the embedded database, whose statements run on the
 * server's own thread, that insert held every session's relay for 20-60 ms, several times while a
 * bulk copy's text was indexed (docs/benchmarks.md, "Indexing after a bulk copy"). A sixteenth of the
 * list merges in about a sixteenth of the time; the total work is the same, and a search has less
 * unmerged list to read through.
 */
export const sql = `
DO $$
BEGIN
  IF to_regclass('recording_text_trgm_idx') IS NOT NULL THEN
    ALTER INDEX recording_text_trgm_idx SET (gin_pending_list_limit = 256);
  END IF;
END $$;
`;
