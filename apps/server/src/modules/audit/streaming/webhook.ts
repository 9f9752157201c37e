import { createHmac } from 'node:crypto';
import type { AuditEntry } from '@gatehouse/contracts';

/** Header with the unix time (seconds) the request was signed at: receivers refuse old ones (replay). */
export const TIMESTAMP_HEADER = 'x-gatehouse-timestamp';
/** Header with `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under the shared secret. */
export const SIGNATURE_HEADER = 'x-gatehouse-signature';

/** How long one delivery may take. */
const SEND_TIMEOUT_MS = 10_000;

/** The signature of a body sent at a time (what a receiver recomputes). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * POSTs entries as {"entries": [...]} signed with the secret. Any answer but 2xx is a failure to
 * retry; redirects are not followed (the body would go somewhere nobody configured).
 */
export async function sendWebhook(url: string, secret: string, entries: AuditEntry[], now = Date.now()) {
  const body = JSON.stringify({ entries });
  const timestamp = Math.floor(now / 1000);
  const answer = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    headers: {
      'content-type': 'application/json',
      'user-agent': 'gatehouse-audit-webhook',
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
    },
    body,
  });
  await answer.body?.cancel();
  if (answer.status < 200 || answer.status > 299) throw new Error(`the webhook answered HTTP ${answer.status}`);
}
