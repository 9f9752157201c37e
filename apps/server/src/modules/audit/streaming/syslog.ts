import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import { type AuditEntry, SYSLOG_FACILITIES } from '@gatehouse/contracts';
import type { SyslogSettings } from './streaming-settings.js';

/** The structured-data id of the entry's fields (32473: the enterprise number RFC 5612 reserves for examples). */
export const SD_ID = 'gatehouse@32473';

/** How long one delivery may take, connection included. */
const SEND_TIMEOUT_MS = 10_000;

/** Severity by outcome: a refusal or a failure is worth a warning, the rest is information. */
const SEVERITY: Record<AuditEntry['outcome'], number> = { success: 6, failure: 4, denied: 4 };

/** Printable US-ASCII only, at most `max` characters, never empty (RFC 5424 header fields). */
function headerField(text: string, max: number): string {
  const clean = text.replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return clean === '' ? '-' : clean;
}

/**
 * A PARAM-VALUE: control characters written as \uXXXX (so CR, LF or NUL never reach the
 * collector), then the three characters RFC 5424 escapes (" \ ]) escaped.
 */
export function sdValue(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/["\\\]]/g, (c) => `\\${c}`);
}

/**
 * Longest message sent: rsyslog's default maxMessageSize is 8 KiB, and a collector that cuts a
 * message cuts its JSON. A longer entry goes with its detail replaced by a note of its size (and
 * its texts cut at 1,000 characters if that is not enough); each structured-data value is cut at
 * 1,000 characters. The whole entry stays in the database and the export.
 */
export const MAX_MESSAGE_BYTES = 8000;
const MAX_TEXT = 1000;

/** JSON of an entry on one line to any reader (U+2028/2029 escaped too). */
function asJson(entry: AuditEntry): string {
  return JSON.stringify(entry)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One entry as an RFC 5424 message: fields as structured data, the entry as JSON in MSG. */
export function syslogMessage(entry: AuditEntry, settings: Pick<SyslogSettings, 'facility'>, hostname = os.hostname()) {
  const pri = SYSLOG_FACILITIES[settings.facility] * 8 + SEVERITY[entry.outcome];
  const params: [string, unknown][] = [
    ['id', entry.id],
    ['actor', entry.actor],
    ['action', entry.action],
    ['target', entry.target],
    ['outcome', entry.outcome],
    ['status', entry.status],
    ['source', entry.source],
  ];
  const sd = params
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => ` ${name}="${sdValue(String(value).slice(0, MAX_TEXT))}"`)
    .join('');
  const header = `<${pri}>1 ${entry.at} ${headerField(hostname, 255)} gatehouse ${process.pid} ${headerField(entry.action, 32)}`;
  const message = (value: AuditEntry) => `${header} [${SD_ID}${sd}] \uFEFF${asJson(value)}`;
  const whole = message(entry);
  if (Buffer.byteLength(whole) <= MAX_MESSAGE_BYTES) return whole;
  const cut = (text: string | null) => text && text.slice(0, MAX_TEXT);
  const note = { truncated: true, detail_bytes: Buffer.byteLength(JSON.stringify(entry.detail)) };
  const lighter = message({ ...entry, detail: note });
  if (Buffer.byteLength(lighter) <= MAX_MESSAGE_BYTES) return lighter;
  return message({
    ...entry,
    actor: cut(entry.actor),
    target: cut(entry.target),
    source: cut(entry.source),
    detail: note,
  });
}

/** Octet-counting framing (RFC 6587 3.4.1, RFC 5425): the length, a space, the message. */
export function frame(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}

/**
 * Sends entries over one TCP (or TLS, the certificate checked) connection and closes it; resolves
 * once everything was handed to the collector and the connection closed cleanly.
 */
export function sendSyslog(settings: SyslogSettings, entries: AuditEntry[]): Promise<void> {
  const payload = Buffer.concat(entries.map((entry) => frame(syslogMessage(entry, settings))));
  return new Promise((resolve, reject) => {
    const onConnect = () => socket.end(payload);
    const socket: net.Socket = settings.tls
      ? tls.connect(
          {
            host: settings.host,
            port: settings.port,
            ...(net.isIP(settings.host) ? {} : { servername: settings.host }),
            ...(settings.ca.trim() ? { ca: settings.ca } : {}),
          },
          onConnect,
        )
      : net.connect({ host: settings.host, port: settings.port }, onConnect);
    socket.setTimeout(SEND_TIMEOUT_MS, () =>
      socket.destroy(new Error(`no answer from ${settings.host}:${settings.port} in ${SEND_TIMEOUT_MS / 1000} s`)),
    );
    socket.on('data', () => undefined); // a collector that talks back is read and ignored
    socket.once('error', reject);
    socket.once('close', (hadError) => {
      if (!hadError) resolve();
    });
  });
}
