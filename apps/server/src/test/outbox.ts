import type { TestServer } from './harness.js';

/**
 * The messages in a server's outbox (SQL, shared by its instances), oldest first, each written
 * as a mail: From, To, Subject, a blank line, then the text.
 */
export async function outbox(server: Pick<TestServer, 'services'>): Promise<string[]> {
  const mail = server.services.mail;
  const { messages } = await mail.listOutbox(0, 200);
  const full = await Promise.all(messages.map((m) => mail.readOutbox(m.id)));
  return full
    .reverse()
    .map((m) => `From: ${m.from}\nTo: ${m.to}\nSubject: ${m.subject}\nDate: ${m.created_at}\n\n${m.text}\n`);
}

/** Waits until the outbox holds at least `count` messages (mail may be sent in the background). */
export async function waitForMail(server: Pick<TestServer, 'services'>, count: number): Promise<string[]> {
  let mails: string[] = [];
  for (let i = 0; i < 100; i += 1) {
    mails = await outbox(server);
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${count} mails in the outbox, found ${mails.length}`);
}

/** The reset token in a mail's link. */
export function resetTokenOf(mail: string): string {
  const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
  if (!token) throw new Error(`no reset link in:\n${mail}`);
  return token;
}
