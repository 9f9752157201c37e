import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../http/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { OutboxRepository } from './outbox.repository.js';

/** One message to send. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** The error codes of nodemailer's SMTP connection, in our words (never the server's own text). */
export function smtpFailure(error: unknown, host: string, port: number): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'EAUTH':
      return `The mail server ${host}:${port} refused the sign-in: check the SMTP user and password in Settings.`;
    case 'EENVELOPE':
      return `The mail server ${host}:${port} refused the sender or the recipient: check the sender address in Settings.`;
    case 'EMESSAGE':
    case 'EDATA':
      return `The mail server ${host}:${port} refused the message.`;
    case 'ETLS':
      return `Could not start TLS with ${host}:${port}: check the TLS setting and the port.`;
    case 'EPROTOCOL':
      return `The server at ${host}:${port} did not answer as a mail server.`;
    default:
      return `Could not connect to ${host}:${port}: check the SMTP host and port in Settings.`;
  }
}

/**
 * Sends mail through the SMTP server of the general settings; with none configured, keeps each
 * message in the outbox (SQL, body sealed) for administrators to read in the console. The log
 * names only the recipient and the subject: a message may carry a reset link.
 */
export class MailService {
  constructor(
    private readonly settings: SettingsService,
    private readonly outbox: OutboxRepository,
    private readonly box: SecretBox,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  ) {}

  /** Sends a message; answers where it went. Throws with a clear message when SMTP refuses it. */
  async send(mail: Mail): Promise<{ via: 'smtp' | 'outbox'; where: string }> {
    const smtp = await this.settings.smtpWithPassword();
    if (!smtp.host) {
      const id = await this.outbox.insert({
        sender: smtp.from,
        recipient: mail.to,
        subject: mail.subject,
        bodySealed: this.box.seal(mail.text),
      });
      this.log.info(
        { to: mail.to, subject: mail.subject, outbox: id },
        'mail kept in the outbox (no SMTP configured; administrators read it in the console)',
      );
      return { via: 'outbox', where: id };
    }
    // Loaded at the first mail sent over SMTP (an idle server without SMTP never needs it).
    const { default: nodemailer } = await import('nodemailer');
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
      await transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text });
      this.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      return { via: 'smtp', where: `${smtp.host}:${smtp.port}` };
    } catch (error) {
      // Only the code: the server's own answer is not ours to repeat, and may echo what was sent.
      const code = (error as { code?: unknown; responseCode?: unknown }).code;
      const responseCode = (error as { responseCode?: unknown }).responseCode;
      this.log.error({ to: mail.to, subject: mail.subject, code, responseCode }, 'mail could not be sent');
      throw new Error(smtpFailure(error, smtp.host, smtp.port), { cause: error });
    } finally {
      transport.close();
    }
  }

  /** One page of the outbox, newest first, and whether mail is being sent instead. */
  async listOutbox(offset: number, limit: number) {
    const [{ total, rows }, smtp] = await Promise.all([this.outbox.page(offset, limit), this.settings.get()]);
    return {
      smtp_configured: Boolean(smtp.smtp.host),
      total,
      messages: rows.map((r) => ({
        id: r.id,
        created_at: r.createdAt.toISOString(),
        from: r.sender,
        to: r.recipient,
        subject: r.subject,
      })),
    };
  }

  /** One message of the outbox with its text. */
  async readOutbox(id: string) {
    const row = await this.outbox.find(id);
    if (!row) throw new HttpError(404, 'This message is no longer in the outbox: it was deleted.');
    return {
      id: row.id,
      created_at: row.createdAt.toISOString(),
      from: row.sender,
      to: row.recipient,
      subject: row.subject,
      text: this.box.open(row.bodySealed),
    };
  }

  async deleteOutbox(id: string) {
    if (!(await this.outbox.delete(id)))
      throw new HttpError(404, 'This message is no longer in the outbox: it was deleted.');
    return { message: 'Message deleted.' };
  }
}
