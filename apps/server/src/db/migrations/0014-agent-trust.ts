/**
 * Agents and registration keys (issue 14, ADR 0006).
 *
 * Registration keys get an expiry and a use count; enrolment takes one use with a single
 * UPDATE ... WHERE uses_left > 0 AND expires_at > now(), so two instances cannot both spend the
 * last one. Keys made before this migration could be used forever: they now expire a day after the
 * upgrade and enrol one more agent at most. The permissions column goes: a key grants nothing.
 *
 * Host names are fixed at enrolment and DNS-like from now on. Names stored before (an agent could
 * rename its host to anything in its hello) are cleaned: anything but letters, digits, dots and
 * hyphens becomes a hyphen, so no control character or markup reaches a header, a file name, a
 * terminal or the console. Agents' names are lowercased as new enrolments are.
 */
/** Host names stored before the fix, cleaned (exported so a test can run it over hostile rows). */
export const cleanHostNames = `
UPDATE agents SET hostname = coalesce(
  nullif(left(btrim(regexp_replace(lower(hostname), '[^a-z0-9.-]+', '-', 'g'), '-.'), 253), ''),
  'host-' || left(id::text, 8)
) WHERE hostname <> lower(hostname) OR hostname ~ '[^a-z0-9.-]' OR hostname = '';
UPDATE recordings SET hostname = coalesce(
  nullif(left(btrim(regexp_replace(hostname, '[^A-Za-z0-9.-]+', '-', 'g'), '-.'), 253), ''),
  'host'
) WHERE hostname ~ '[^A-Za-z0-9.-]' OR hostname = '';
`;

export const sql = `
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
ALTER TABLE api_keys ADD COLUMN uses integer;
ALTER TABLE api_keys ADD COLUMN uses_left integer;
UPDATE api_keys SET expires_at = now() + interval '24 hours', uses = 1, uses_left = 1;
ALTER TABLE api_keys ALTER COLUMN expires_at SET NOT NULL;
ALTER TABLE api_keys ALTER COLUMN uses SET NOT NULL;
ALTER TABLE api_keys ALTER COLUMN uses_left SET NOT NULL;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_uses_left_range CHECK (uses_left >= 0 AND uses_left <= uses);
ALTER TABLE api_keys DROP COLUMN permissions;
${cleanHostNames}`;
