import { type RecordOut, SESSION_EVENTS, type WatchDropped } from '@gatehouse/contracts';
import { toTerminalOps } from '../replay/playback-clock';
import type { TerminalSink } from '../replay/replay-engine';
import { LiveSequencer } from './live-sequencer';

/** What the live view shows. */
export interface LiveState {
  /** 'dropped': the server detached this watcher for falling behind; `reattach()` resumes. */
  status: 'connecting' | 'live' | 'ended' | 'error' | 'dropped';
  error: string | null;
  /** Times a missing chunk made the view catch up again. */
  resyncs: number;
}

/** What the watch needs of the console socket (lib/console-socket's ConsoleSocket). */
export interface LiveSocket {
  on(event: string, listener: (...args: unknown[]) => void): () => void;
  emit(event: string, payload: unknown): void;
  close(): void;
}

/**
 * Watches one live session: attaches with replay on every (re)connection, draws the catch-up and
 * then each chunk in order, and re-attaches when a chunk number is skipped. When the server drops
 * this watcher for falling behind, it waits for `reattach()` (the user's choice: attaching again at
 * once could only fall behind again). A plain class; the hook `useLiveWatch` starts and stops it.
 */
export class LiveWatch {
  private state: LiveState = { status: 'connecting', error: null, resyncs: 0 };
  private readonly listeners = new Set<() => void>();
  private readonly sequencer = new LiveSequencer();
  private offs: (() => void)[] = [];
  private socket: LiveSocket | null = null;
  private sink: TerminalSink | null = null;

  constructor(
    private readonly openSocket: () => LiveSocket,
    private readonly recordingId: string,
    private readonly size: { cols: number; rows: number; hasTerminal: boolean },
  ) {}

  /** The current state (stable between changes). */
  readonly getState = (): LiveState => this.state;

  /** Calls the listener on every change; answers the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Opens a socket, listens and attaches, drawing on this terminal (socket.io reports 'connect'
   * after each connection, the first included, so a reconnection attaches again).
   */
  start(sink: TerminalSink): void {
    this.stop();
    this.sink = sink;
    this.sequencer.restart();
    this.set({ status: 'connecting', error: null, resyncs: 0 });
    const socket = this.openSocket();
    this.socket = socket;
    this.offs = [
      // After a drop, attaching again is the user's choice (the Reattach button), also on a reconnection.
      socket.on('connect', () => {
        if (this.state.status !== 'dropped') this.attach();
      }),
      socket.on('disconnect', () => {
        if (this.state.status === 'live') this.set({ status: 'connecting' });
      }),
      socket.on('connect_error', (error) => {
        // The spec logs connect errors; socket.io keeps retrying.
        console.warn('live session socket:', (error as Error).message);
      }),
      socket.on(SESSION_EVENTS.output, (raw) => this.onChunk(raw as RecordOut)),
      socket.on(SESSION_EVENTS.terminated, (raw) => {
        if ((raw as { recording_id?: string }).recording_id === this.recordingId) this.set({ status: 'ended' });
      }),
      socket.on(SESSION_EVENTS.attachError, (raw) => {
        this.set({ status: 'error', error: (raw as { message?: string }).message ?? null });
      }),
      socket.on(SESSION_EVENTS.watchDropped, (raw) => {
        const dropped = raw as WatchDropped;
        if (dropped.recording_id !== this.recordingId || this.state.status === 'ended') return;
        this.sequencer.restart();
        this.set({ status: 'dropped', error: dropped.message });
      }),
    ];
  }

  /** Attaches again after being dropped: the catch-up from the recording, then live output. */
  readonly reattach = (): void => {
    if (!this.socket) return;
    this.set({ status: 'connecting', error: null });
    this.attach();
  };

  /** Tells the server this console no longer watches, stops listening and closes the socket. */
  stop(): void {
    for (const off of this.offs) off();
    this.offs = [];
    this.socket?.emit('new_record_detach', { recording_id: this.recordingId });
    this.socket?.close();
    this.socket = null;
    this.sink = null;
  }

  private attach(): void {
    this.sequencer.restart();
    this.socket?.emit(SESSION_EVENTS.attach, { recording_id: this.recordingId, replay: true });
  }

  private onChunk(chunk: RecordOut): void {
    const sink = this.sink;
    // A chunk sent before the drop and read after it has nothing to join.
    if (chunk.recording_id !== this.recordingId || !sink || this.state.status === 'dropped') return;
    const step = this.sequencer.receive(chunk);
    switch (step.kind) {
      case 'replay':
        sink.reset();
        sink.setConvertEol?.(!this.size.hasTerminal);
        sink.resize(this.size.cols, this.size.rows);
        this.draw(sink, step.events);
        if (this.state.status === 'connecting') this.set({ status: 'live', error: null });
        break;
      case 'append':
        this.draw(sink, step.events);
        break;
      case 'gap':
        this.set({ resyncs: this.state.resyncs + 1 });
        this.attach();
        break;
      case 'none':
        break;
    }
  }

  private draw(sink: TerminalSink, events: RecordOut['events']): void {
    for (const op of toTerminalOps(events.map(([, type, data]) => ({ type, data })))) {
      if (op.kind === 'write') sink.write(op.data);
      else sink.resize(op.cols, op.rows);
    }
  }

  private set(patch: Partial<LiveState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
