import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a media ticket lets a player or a download link fetch a recording. */
export const MEDIA_TICKET_SECONDS = 4 * 3600;

interface TicketBody {
  /** Hash of the token the ticket was made with: signing out revokes its tickets too. */
  t: string;
  /** The recording it opens. */
  r: string;
  /** Expiry, unix seconds. */
  e: number;
}

/**
 * Short-lived tickets for media URLs (a video element or a download link cannot send the token
 * header). Stateless, so every server instance checks them alike: an HMAC over the token hash,
 * the recording and the expiry, with a key derived from the server's secret key.
 */
export class MediaTickets {
  private readonly key: Buffer;

  constructor(secretKey: Buffer) {
    this.key = createHmac('sha256', secretKey).update('gatehouse media ticket v1').digest();
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  /** A ticket for this token's holder to fetch this recording. */
  issue(tokenHash: string, recordingId: string, now = Date.now()): { ticket: string; expiresAt: Date } {
    const body: TicketBody = { t: tokenHash, r: recordingId, e: Math.floor(now / 1000) + MEDIA_TICKET_SECONDS };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return { ticket: `${payload}.${this.sign(payload)}`, expiresAt: new Date(body.e * 1000) };
  }

  /** The token hash a valid, unexpired ticket for this recording carries; undefined otherwise. */
  check(ticket: string, recordingId: string, now = Date.now()): string | undefined {
    const [payload, signature, extra] = ticket.split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    let body: Partial<TicketBody>;
    try {
      body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<TicketBody>;
    } catch {
      return undefined;
    }
    if (typeof body.t !== 'string' || body.r !== recordingId || typeof body.e !== 'number') return undefined;
    if (body.e * 1000 < now) return undefined;
    return body.t;
  }
}
