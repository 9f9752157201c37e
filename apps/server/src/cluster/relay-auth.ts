import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { relayNonces, serverInstances } from '../db/schema.js';

/** Where one instance asks another for a stream, a config push or a video (WebSocket upgrade). */
export const RELAY_PATH = '/api/internal/relay';
/** A relay request signed longer ago (or further ahead) than this is stale. */
export const RELAY_VALIDITY_MS = 30_000;

export const RELAY_HEADERS = {
  instance: 'x-gatehouse-relay-instance',
  time: 'x-gatehouse-relay-time',
  nonce: 'x-gatehouse-relay-nonce',
  signature: 'x-gatehouse-relay-signature',
} as const;

/** What a relay asks for: a stream to a host, a config push, or the view-only picture of a browser desktop. */
export type RelayAction = 'stream' | 'config' | 'desktop-watch';
const RELAY_ACTIONS: readonly string[] = ['stream', 'config', 'desktop-watch'];

/** One relay request: who asks (source instance), whom (target instance), for what. */
export interface RelayRequest {
  action: RelayAction;
  source: string;
  target: string;
  /** The agent of a stream or config push; '' for desktop-watch. */
  agentId: string;
  /** The host port for a stream; 0 for a config push or desktop-watch. */
  port: number;
  time: number;
  nonce: string;
  /** desktop-watch only: the recording id of the live browser desktop to watch. */
  recordingId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NONCE = /^[A-Za-z0-9_-]{22,64}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;

function signed(request: RelayRequest): string {
  const lines = [
    'gatehouse-relay-v1',
    request.action,
    request.source,
    request.target,
    request.agentId,
    String(request.port),
    String(request.time),
    request.nonce,
  ];
  // Signed after the fields of v1 (streams and config pushes sign exactly what they did before).
  if (request.action === 'desktop-watch') lines.push(request.recordingId ?? '');
  return lines.join('\n');
}

function mac(key: Buffer, request: RelayRequest): Buffer {
  return createHmac('sha256', key).update(signed(request)).digest();
}

/** The headers and query of a signed relay request (a fresh nonce, now's time). */
export function signRelay(
  key: Buffer,
  fields: Omit<RelayRequest, 'time' | 'nonce'> & Partial<Pick<RelayRequest, 'time' | 'nonce'>>,
): { headers: Record<string, string>; query: string } {
  const request: RelayRequest = { time: Date.now(), nonce: randomBytes(18).toString('base64url'), ...fields };
  return {
    headers: {
      [RELAY_HEADERS.instance]: request.source,
      [RELAY_HEADERS.time]: String(request.time),
      [RELAY_HEADERS.nonce]: request.nonce,
      [RELAY_HEADERS.signature]: mac(key, request).toString('hex'),
    },
    query: new URLSearchParams({
      action: request.action,
      target: request.target,
      ...(request.action === 'desktop-watch'
        ? { recording: request.recordingId ?? '' }
        : { agent: request.agentId, port: String(request.port) }),
    }).toString(),
  };
}

/** Why a relay request was refused: logged by its reason, never its signature or the secret. */
export class RelayRefused extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    /** What the asking instance is told. */
    readonly answer: string,
  ) {
    super(reason);
  }
}

const UNSIGNED = 'This path is for Gatehouse server instances only.';

/**
 * Checks a relay request addressed to `self`: well formed, signed with the cluster secret over
 * every field, fresh (RELAY_VALIDITY_MS), from a running instance, its nonce never seen before by
 * any instance. Answers the request, or throws RelayRefused.
 */
export async function verifyRelay(
  deps: { key: Buffer; db: Db; self: string; now?: number },
  url: URL,
  headers: IncomingHttpHeaders,
): Promise<RelayRequest> {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : '';
  };
  const signature = header(RELAY_HEADERS.signature);
  if (!signature) throw new RelayRefused(401, 'no signature', UNSIGNED);
  const action = url.searchParams.get('action') ?? '';
  const watch = action === 'desktop-watch';
  const request: RelayRequest = {
    action: action as RelayAction,
    source: header(RELAY_HEADERS.instance),
    target: url.searchParams.get('target') ?? '',
    agentId: watch ? '' : (url.searchParams.get('agent') ?? ''),
    port: watch ? 0 : Number(url.searchParams.get('port') ?? 'x'),
    time: Number(header(RELAY_HEADERS.time) || 'x'),
    nonce: header(RELAY_HEADERS.nonce),
    ...(watch ? { recordingId: url.searchParams.get('recording') ?? '' } : {}),
  };
  if (
    !RELAY_ACTIONS.includes(action) ||
    !UUID.test(request.source) ||
    !UUID.test(request.target) ||
    (watch ? !UUID.test(request.recordingId ?? '') : !UUID.test(request.agentId)) ||
    !Number.isInteger(request.port) ||
    request.port < 0 ||
    request.port > 65535 ||
    !Number.isSafeInteger(request.time) ||
    !NONCE.test(request.nonce) ||
    !SIGNATURE.test(signature)
  )
    throw new RelayRefused(400, 'malformed relay request', 'The relay request is malformed.');
  const expected = mac(deps.key, request);
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) throw new RelayRefused(401, 'bad signature', UNSIGNED);
  const now = deps.now ?? Date.now();
  if (Math.abs(now - request.time) > RELAY_VALIDITY_MS)
    throw new RelayRefused(401, 'stale timestamp', 'The relay request is stale: check the instances’ clocks.');
  if (request.target !== deps.self)
    throw new RelayRefused(421, 'addressed to another instance', 'This relay request is for another instance.');
  const [source] = await deps.db
    .select({ id: serverInstances.id })
    .from(serverInstances)
    .where(and(eq(serverInstances.id, request.source), isNull(serverInstances.goneAt)));
  if (!source) throw new RelayRefused(401, 'unknown or gone source instance', UNSIGNED);
  // Accepted once by any instance: the nonce is kept while its request could still be fresh.
  const taken = await deps.db
    .insert(relayNonces)
    .values({
      nonce: request.nonce,
      expiresAt: sql`now() + make_interval(secs => ${(2 * RELAY_VALIDITY_MS) / 1000})`,
    })
    .onConflictDoNothing()
    .returning({ nonce: relayNonces.nonce });
  if (taken.length === 0) throw new RelayRefused(401, 'replayed nonce', 'This relay request was already used.');
  return request;
}

/** Forgets the nonces whose requests can no longer be fresh. */
export async function purgeRelayNonces(db: Db): Promise<void> {
  await db.delete(relayNonces).where(lt(relayNonces.expiresAt, sql`now()`));
}
