import type { RangeFetcher } from './cast-reader';
import type { CastHeader } from './cast-stream';

/** What the player draws on: an xterm.js terminal in the browser. */
export interface TerminalSink {
  reset(): void;
  resize(cols: number, rows: number): void;
  write(data: string): void;
  /** Settles once everything written so far has been parsed (xterm.js parses asynchronously). */
  flushed?(): Promise<void>;
  /** Treat a bare line feed as a new line: output of a session without a terminal (ssh host cmd). */
  setConvertEol?(on: boolean): void;
}

/** The server's answer to /seek. */
export interface SeekAnswer {
  t: number;
  offset: number;
  size: number;
  events_start: number;
  duration: number;
}

/** How the engine reaches the recording: byte ranges of the cast and the server's seek index. */
export interface ReplaySource {
  fetchRange: RangeFetcher;
  seek(t: number): Promise<SeekAnswer>;
}

/** What the controls show. */
export interface ReplayState {
  status: 'loading' | 'ready' | 'error';
  playing: boolean;
  ended: boolean;
  /** Waiting for bytes (after a seek, or playback caught up with the download). */
  buffering: boolean;
  /** Seconds from the start. */
  position: number;
  duration: number;
  speed: number;
  skipIdle: boolean;
  error: string | null;
  header: CastHeader | null;
  /** Milliseconds the last seek took, from the request to the rebuilt screen. */
  seekMs: number | null;
}

/** The state before anything has loaded. */
export const INITIAL_REPLAY_STATE: ReplayState = {
  status: 'loading',
  playing: false,
  ended: false,
  buffering: true,
  position: 0,
  duration: 0,
  speed: 1,
  skipIdle: true,
  error: null,
  header: null,
  seekMs: null,
};
