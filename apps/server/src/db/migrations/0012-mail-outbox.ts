/**
 * The mail outbox: without an SMTP server, mail is kept here instead of being sent, for
 * administrators to read in the console. In SQL rather than the data folder, so every instance
 * sees the same outbox. The body (it may carry a reset link) is sealed with the server's secret
 * box, like the other secrets: a database reader cannot use the link.
 */
export const sql = `
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  sender text NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  body_sealed text NOT NULL
);
CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC, id DESC);
`;
