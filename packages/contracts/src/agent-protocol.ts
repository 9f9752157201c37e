import { z } from 'zod';
import { AgentOs, HostConfig } from './routes/agents.js';

/**
 * The agent's WebSocket to the server (/api/agent/connect). Text frames carry these JSON
 * messages; binary frames carry tunnel bytes as a 4-byte big-endian stream id followed by data.
 * 'end' says a side will send no more bytes (TCP half-close); 'close' ends the stream both ways.
 * Flow control: a side sends at most a window of unacknowledged bytes per stream; the receiver
 * acknowledges bytes once its socket has taken them. The server names the window it takes in 'open',
 * the agent its own in 'opened'; a side that names none (a version before the window was named) gets
 * STREAM_WINDOW.
 */
export const AGENT_CONNECT_PATH = '/api/agent/connect';
/** The window a side uses toward a peer that named none. */
export const STREAM_WINDOW = 256 * 1024;
/**
 * The window this version names, and the most it uses whatever a peer names, on a stream that is
 * the only one open on its agent's socket. A stream that shares the socket with others keeps
 * STREAM_WINDOW: another session's keystroke echo waits behind whatever of this stream is in the
 * socket, and with 1 MiB in flight a typist's echo p50 beside a copy doubled (1.9 to 4.1 ms), while
 * a copy went 7-10 % faster with it (docs/benchmarks.md, "The tunnel's window"). The receiver holds at
 * most 4 such windows (RECEIVE_LIMIT) of bytes its reader has not taken.
 */
export const STREAM_WINDOW_OFFERED = 1024 * 1024;
/** A window as a peer names it (clamped by the user to STREAM_WINDOW..STREAM_WINDOW_OFFERED). */
const NamedWindow = z
  .number()
  .int()
  .positive()
  .max(2 ** 31);
/** The server pings every this many ms and drops an agent silent for two intervals (disconnected within 15 s). */
export const AGENT_PING_MS = 4000;

/**
 * WebSocket close codes the server ends an agent's socket with (4000-4999 are the application's).
 * FLOODED: the agent sent more messages of one kind than its limits allow (the reason names the
 * kind); a well-behaved agent waits longer than usual before it connects again.
 */
export const AGENT_CLOSE = {
  /** A newer connection of the same agent took over. */
  REPLACED: 4000,
  /** The agent was deleted or enrolled again. */
  REVOKED: 4001,
  /** Too many messages of one kind (or frames for streams that do not exist). */
  FLOODED: 4029,
} as const;

/**
 * Capture the desktop for as long as this (rdp) stream lives, with the host's recording settings,
 * and upload the video as it records to PUT /api/recording/{recording_id}/video. Sent right after
 * the stream opened, once its recording exists (so a refused stream never gets a recording).
 */
export const RecordVideo = z.object({
  t: z.literal('record'),
  stream: z.number().int().positive(),
  recording_id: z.uuid(),
  fps: HostConfig.shape.recording_fps,
  scale: HostConfig.shape.recording_scale,
  bitrate: HostConfig.shape.recording_bitrate,
});
export type RecordVideo = z.infer<typeof RecordVideo>;

/** Messages from the server to an agent. */
export const ServerToAgent = z.discriminatedUnion('t', [
  z.object({ t: z.literal('config'), config: HostConfig }),
  z.object({
    t: z.literal('open'),
    stream: z.number().int().positive(),
    port: z.number().int().min(1).max(65535),
    window: NamedWindow.optional(),
  }),
  z.object({ t: z.literal('end'), stream: z.number().int().positive() }),
  z.object({ t: z.literal('close'), stream: z.number().int().positive() }),
  z.object({ t: z.literal('ack'), stream: z.number().int().positive(), bytes: z.number().int().positive() }),
  RecordVideo,
]);
export type ServerToAgent = z.infer<typeof ServerToAgent>;

/**
 * How a session's video capture stands, reported by the agent as it changes (issue 18):
 * waiting (the stream is open, the desktop session does not exist yet), filming (ffmpeg records
 * `display`), stopped (the session or stream ended; the video is uploaded), failed (the capture
 * could not start or broke; `detail` says why) and unsupported (this OS or setup cannot film
 * an RDP session; `detail` says why). The server applies the definition's policy for unfilmed RDP.
 */
export const CaptureState = z.enum(['waiting', 'filming', 'stopped', 'failed', 'unsupported']);
export type CaptureState = z.infer<typeof CaptureState>;
export const CaptureStatus = z.object({
  t: z.literal('capture'),
  recording_id: z.uuid(),
  state: CaptureState,
  /** The X display or Windows source filmed, once known. */
  display: z.string().max(100).optional(),
  /** Why it failed or is unsupported, in words an administrator can act on. */
  detail: z.string().max(500).optional(),
});
export type CaptureStatus = z.infer<typeof CaptureStatus>;

/** Messages from an agent to the server. */
export const AgentToServer = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), hostname: z.string().max(253), os: AgentOs, version: z.string().max(50) }),
  z.object({ t: z.literal('config-applied'), config: HostConfig }),
  z.object({ t: z.literal('opened'), stream: z.number().int().positive(), window: NamedWindow.optional() }),
  z.object({ t: z.literal('refused'), stream: z.number().int().positive(), reason: z.string().max(500) }),
  z.object({ t: z.literal('end'), stream: z.number().int().positive() }),
  z.object({ t: z.literal('close'), stream: z.number().int().positive() }),
  z.object({ t: z.literal('ack'), stream: z.number().int().positive(), bytes: z.number().int().positive() }),
  CaptureStatus,
]);
export type AgentToServer = z.infer<typeof AgentToServer>;

/** Header names an agent authenticates its WebSocket with. */
export const AGENT_ID_HEADER = 'x-gatehouse-agent-id';
export const AGENT_CREDENTIAL_HEADER = 'x-gatehouse-agent-credential';
