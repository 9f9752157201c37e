import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { SettingsService } from '../settings/settings.service.js';

/** One message to send. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail through the SMTP server of the general settings; with none configured, writes each
 * message to the data folder's outbox and logs it, so a newcomer can still finish every flow.
 */
export class MailService {
  constructor(
    private readonly settings: SettingsService,
    private readonly outboxDir: string,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  ) {}

  /** Sends a message; answers where it went. Throws with a clear message when SMTP refuses it. */
  async send(mail: Mail): Promise<{ via: 'smtp' | 'outbox'; where: string }> {
    const smtp = await this.settings.smtpWithPassword();
    if (!smtp.host) {
      await fs.mkdir(this.outboxDir, { recursive: true });
      const file = path.join(
        this.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
      );
      const body = `From: ${smtp.from}\nTo: ${mail.to}\nSubject: ${mail.subject}\nDate: ${new Date().toUTCString()}\n\n${mail.text}\n`;
      // Written aside then renamed, so a reader never sees half a message.
      await fs.writeFile(`${file}.part`, body, { mode: 0o600 });
      await fs.rename(`${file}.part`, file);
      this.log.info(
        { to: mail.to, subject: mail.subject, file, text: mail.text },
        'mail written to the outbox (no SMTP configured)',
      );
      return { via: 'outbox', where: file };
    }
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      const info = await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
      this.log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
      return { via: 'smtp', where: `${smtp.host}:${smtp.port}` };
    } catch (error) {
      this.log.error({ err: error, to: mail.to }, 'mail could not be sent');
      throw new Error(`The mail server ${smtp.host}:${smtp.port} refused the message: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      transport.close();
    }
  }
}
