import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Query parameters and fragments that carry a credential: media tickets, tokens (reset links,
 * one-shot authorizations), OIDC codes and state, SAML messages. Their values never reach a log.
 */
const SECRET_PARAMETER =
  /([?&#;](?:ticket|token|code|state|session_state|id_token|access_token|refresh_token|password|secret|client_secret|samlresponse|samlrequest|relaystate|signature|sig)=)[^&\s"'#\\]*/gi;

/** A text with the values of credential-carrying parameters replaced. */
export function scrubSecrets(text: string): string {
  return text.replace(SECRET_PARAMETER, '$1[redacted]');
}

/** A request URL as logged: the path only, never its query string (tickets travel there). */
export function loggedUrl(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** Fields whose values are secrets wherever they appear (top level or one level down). */
const SECRET_FIELDS = [
  'password',
  'new_password',
  'current_password',
  'token',
  'authentication_token',
  'ticket',
  'secret',
  'client_secret',
  'clientSecret',
  'bindPassword',
  'ldap_bind_password',
  'privateKey',
  'text',
  'link',
];

/** Passes each chunk on with the secrets of credential-carrying parameters replaced. */
class Scrubbing extends Writable {
  constructor(private readonly target: { write(chunk: string): unknown }) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.target.write(scrubSecrets(chunk.toString('utf8')));
    done();
  }
}

/** Lines kept per component for the status screen. */
const KEPT_LINES = 500;

/**
 * The recent log lines of this process, by component (the `component` binding of a child
 * logger; 'api' when none). Each instance keeps its own: they are that instance's logs.
 */
export class LogBook extends Writable {
  private readonly lines = new Map<string, string[]>();

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    // The status screen shows these lines: the same scrubbing as the process log, whoever wrote them.
    for (const line of scrubSecrets(chunk.toString('utf8')).split('\n')) {
      if (!line) continue;
      let component = 'api';
      try {
        const parsed = JSON.parse(line) as { component?: unknown };
        if (typeof parsed.component === 'string') component = parsed.component;
      } catch {
        // Not JSON: keep it under api.
      }
      let list = this.lines.get(component);
      if (!list) this.lines.set(component, (list = []));
      list.push(line);
      if (list.length > KEPT_LINES) list.splice(0, list.length - KEPT_LINES);
    }
    done();
  }

  /** The latest lines of a component, oldest first. */
  recent(component: string, limit = KEPT_LINES): string[] {
    return (this.lines.get(component) ?? []).slice(-limit);
  }
}

/** The request as logged: method, path without its query, host and address; never headers. */
function requestSerializer(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: loggedUrl(req.url ?? ''),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * Structured JSON logs with levels. Nothing secret is written: token headers and cookies,
 * password, token, ticket, secret and mail-text fields are redacted; request URLs are logged
 * without their query string; and every line, to the process log and to the status screen's
 * LogBook alike, has the values of credential-carrying URL parameters replaced.
 */
export function createLogger(level: string, book?: LogBook, out: { write(chunk: string): unknown } = process.stdout) {
  const options: pino.LoggerOptions = {
    level,
    serializers: { req: requestSerializer },
    redact: {
      paths: [
        'req.headers["authentication-token"]',
        'req.headers["x-auth-token"]',
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        ...SECRET_FIELDS,
        ...SECRET_FIELDS.map((f) => `*.${f}`),
      ],
      censor: '[redacted]',
    },
  };
  const streams: pino.StreamEntry[] = [{ stream: new Scrubbing(out), level: level as pino.Level }];
  if (book) streams.push({ stream: book, level: level as pino.Level });
  return pino(options, pino.multistream(streams)) as FastifyBaseLogger;
}
