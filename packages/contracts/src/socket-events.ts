import { z } from 'zod';

/** Socket events of live sessions (spec §7.3). */
export const SESSION_EVENTS = {
  attach: 'new_record_attach',
  output: 'record_out',
  terminated: 'tunnel_terminated',
  attachError: 'record_attach_error',
  /** The watcher fell behind the live output and was detached ({@link WatchDropped}); it may attach again. */
  watchDropped: 'gatehouse:watch-dropped',
} as const;

/** What a console sends to watch a session. */
export const AttachRequest = z.object({ recording_id: z.uuid(), replay: z.boolean().default(true) });

/**
 * One asciicast v2 event: seconds since the start, 'o' output, 'i' input, 'r' resize or 'm' marker
 * (a JSON FileTransferMarker or ChannelMarker, never terminal text), and data.
 */
export type CastEvent = [number, 'o' | 'i' | 'r' | 'm', string];

/**
 * The event type of output stored as bytes, in cast files only (issue 19): `[t, "b", base64]`. The
 * recorder writes output that is not text this way (NUL bytes cost 6 bytes each as a JSON string,
 * bytes that are not UTF-8 were replaced by U+FFFD); base64 costs 4 bytes per 3 and keeps every byte.
 * Readers turn it back into an 'o' event with {@link castEvent}; watchers only ever get 'o'.
 * A "b" event always holds whole UTF-8 characters, so it decodes on its own.
 */
export const CAST_BYTES = 'b';

/** The text of a "b" event's base64 bytes, decoded as UTF-8 as a terminal would (invalid bytes as U+FFFD). */
export function castBytesText(base64: string): string {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * One parsed line of a cast file as a CastEvent: a "b" event becomes the 'o' event it stands for;
 * anything else that is not [number, string, string] is undefined (skipped by readers).
 */
export function castEvent(value: unknown): CastEvent | undefined {
  if (!Array.isArray(value) || value.length < 3) return undefined;
  const [t, type, data] = value as unknown[];
  if (typeof t !== 'number' || typeof type !== 'string' || typeof data !== 'string') return undefined;
  if (type === CAST_BYTES) {
    try {
      return [t, 'o', castBytesText(data)];
    } catch {
      return undefined; // not base64
    }
  }
  return [t, type as CastEvent[1], data];
}

/**
 * A chunk of a recording as watchers get it. `seq` numbers chunks from 1 with no gaps, so a
 * watcher that sees a jump knows it missed one and re-attaches; replay answers seq 0 with
 * everything up to `upto`.
 */
export interface RecordOut {
  recording_id: string;
  seq: number;
  /** With replay: the last chunk the replayed events include. */
  upto?: number;
  events: CastEvent[];
}

/** Why a watcher stopped hearing a session's live output: it fell behind, and was detached. */
export interface WatchDropped {
  recording_id: string;
  /** The reason, in English (the console shows its own translation). */
  message: string;
}

/** The cluster status socket's event: the components' health, sent when it changes (spec §4). */
export const CLUSTER_EVENTS = { statefulsetUpdate: 'k8s_statefulset_update' } as const;
