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
