/**
 * Issue 17 item 5: instances that act as one. Each instance advertises the URL the others reach it
 * at (GATEHOUSE_ADVERTISE_URL), so a stream, a config push or a video request for an agent held by
 * another instance is relayed to it (cluster/relay-*.ts, ADR 0007). Each relay request is signed
 * and carries a nonce; a nonce is accepted once, here, by every instance (replays refused), and
 * forgotten once its request could no longer be fresh.
 */
export const sql = `
ALTER TABLE server_instances ADD COLUMN IF NOT EXISTS advertise_url text;
CREATE TABLE IF NOT EXISTS relay_nonces (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS relay_nonces_expires_idx ON relay_nonces (expires_at);
`;
