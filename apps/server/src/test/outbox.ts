import fs from 'node:fs';
import path from 'node:path';

/** The messages in a server's outbox, oldest first. */
export function outbox(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

/** Waits until the outbox holds at least `count` messages (mail may be sent in the background). */
export async function waitForMail(dataDir: string, count: number): Promise<string[]> {
  for (let i = 0; i < 100; i += 1) {
    const mails = outbox(dataDir);
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${count} mails in the outbox, found ${outbox(dataDir).length}`);
}

/** The reset token in a mail's link. */
export function resetTokenOf(mail: string): string {
  const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
  if (!token) throw new Error(`no reset link in:\n${mail}`);
  return token;
}
