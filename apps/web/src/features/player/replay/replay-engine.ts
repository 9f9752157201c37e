import { CastReader, WINDOW_BYTES } from './cast-reader';
import { type PlacedEvent, headerSize, splitHeader } from './cast-stream';
import { IDLE_CAP_SECONDS, advancePosition, takeDue, toTerminalOps } from './playback-clock';
import { EventMemory } from './event-memory';
import { type ReplaySource, type ReplayState, type TerminalSink, INITIAL_REPLAY_STATE } from './replay-types';
import { clampTime, contextStart, CONTEXT_BYTES } from './seek-plan';

export {
  INITIAL_REPLAY_STATE,
  type ReplaySource,
  type ReplayState,
  type SeekAnswer,
  type TerminalSink,
} from './replay-types';

/** A time past any recording's end: /seek answers the size and the duration. */
const END = 10 * 365 * 86400;
/** Queued events below which the next window is fetched. */
const LOW_WATER_EVENTS = 2000;
const TICK_MS = 50;
const LIVE_POLL_MS = 2000;

/**
 * Plays an asciicast from byte ranges: the header and the first window first, the rest as playback
 * nears it. A seek asks the server for the byte offset of a time, fetches context before it and a
 * window after it in one range, rebuilds the screen from the context, and plays on from there.
 * A plain class; the hook `useReplay` starts it on a terminal and stops it.
 */
export class ReplayEngine {
  private state: ReplayState = INITIAL_REPLAY_STATE;
  private sink: TerminalSink = { reset: () => undefined, resize: () => undefined, write: () => undefined };
  private readonly listeners = new Set<() => void>();
  private readonly reader: CastReader;
  private queue: PlacedEvent[] = [];
  private eventsStart = 0;
  private size = 0;
  private generation = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastTick = 0;
  private lastPoll = 0;
  private polling = false;
  private stopped = true;
  private live: boolean;
  /** Events from the start, for seeks without a request once the whole file has been read. */
  private memory = new EventMemory();

  constructor(
    private readonly source: ReplaySource,
    private readonly options: { live?: boolean; now?: () => number; windowBytes?: number; autoTick?: boolean } = {},
  ) {
    this.reader = new CastReader(source.fetchRange, options.windowBytes ?? WINDOW_BYTES);
    this.live = options.live ?? false;
  }

  /** Whether the recording still grows (then the end is looked for again while caught up). */
  setLive(live: boolean): void {
    this.live = live;
  }

  /** The current state (stable between changes, for useSyncExternalStore). */
  readonly getState = (): ReplayState => this.state;

  /** Calls the listener on every change; answers the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Draws on this terminal from the start: fetches the header and the first window, shows the first frame. */
  start(sink: TerminalSink): Promise<void> {
    this.sink = sink;
    this.stopped = false;
    this.queue = [];
    this.memory = new EventMemory();
    this.set({ ...INITIAL_REPLAY_STATE, speed: this.state.speed, skipIdle: this.state.skipIdle });
    return this.load();
  }

  private async load(): Promise<void> {
    const generation = ++this.generation;
    try {
      const window = this.options.windowBytes ?? WINDOW_BYTES;
      const [first, end] = await Promise.all([this.source.fetchRange(0, window), this.source.seek(END)]);
      if (this.stale(generation)) return;
      const { header, eventsStart } = splitHeader(first);
      this.eventsStart = eventsStart;
      this.size = Math.max(end.size, eventsStart);
      this.reader.reset(eventsStart, this.size);
      this.queue = this.reader.accept(first.subarray(eventsStart));
      this.memory.remember(this.queue);
      const size = headerSize(header);
      this.sink.reset();
      this.sink.setConvertEol?.(!(header.width > 0));
      this.sink.resize(size.cols, size.rows);
      this.set({ status: 'ready', header, duration: end.duration, position: 0, buffering: false });
      this.render();
      this.fill();
    } catch (error) {
      if (!this.stale(generation)) this.fail(error);
    }
  }

  /** Starts or resumes; at the end it starts over. */
  play(): void {
    if (this.state.status !== 'ready' || this.state.playing) return;
    if (this.state.ended) void this.seek(0);
    this.lastTick = this.now();
    this.set({ playing: true, ended: false });
    if (this.options.autoTick !== false && !this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Stops where it is. */
  pause(): void {
    this.stopTimer();
    if (this.state.playing) this.set({ playing: false });
  }

  /** Space bar. */
  toggle(): void {
    if (this.state.playing) this.pause();
    else this.play();
  }

  /** Playback speed (0.5 to 8). */
  setSpeed(speed: number): void {
    this.set({ speed });
  }

  /** Caps pauses at two seconds when on. */
  setSkipIdle(skipIdle: boolean): void {
    this.set({ skipIdle });
  }

  /** Jumps to a time (seconds from the start): the server finds its byte offset. */
  async seek(t: number): Promise<void> {
    if (this.state.status !== 'ready') return;
    const generation = ++this.generation;
    const started = this.now();
    const target = clampTime(t, this.state.duration);
    // seekMs goes back to null until this seek is done, so each seek reports its own time.
    this.set({ position: target, buffering: true, ended: false, seekMs: null });
    if (this.complete) {
      this.seekInMemory(target, null, generation, started);
      return;
    }
    try {
      const answer = await this.source.seek(target);
      if (this.stale(generation)) return;
      this.size = Math.max(this.size, answer.size);
      await this.seekToOffset(target, answer.offset, generation, false, started);
    } catch (error) {
      if (!this.stale(generation)) this.fail(error);
    }
  }

  /** Jumps to an event whose offset is known (a search hit) and shows it. */
  async jumpTo(t: number, offset: number): Promise<void> {
    if (this.state.status !== 'ready') return;
    const generation = ++this.generation;
    const started = this.now();
    this.set({ position: clampTime(t, this.state.duration), buffering: true, ended: false, seekMs: null });
    if (this.complete) {
      this.seekInMemory(t, offset, generation, started);
      return;
    }
    try {
      await this.seekToOffset(t, offset, generation, true, started);
    } catch (error) {
      if (!this.stale(generation)) this.fail(error);
    }
  }

  /** Advances playback by the wall time since the last tick (the timer calls this). */
  tick(): void {
    const now = this.now();
    const wall = Math.max(0, now - this.lastTick) / 1000;
    this.lastTick = now;
    if (!this.state.playing || this.state.buffering) return;
    const next = this.queue[0];
    if (!next) {
      this.atEndOfQueue();
      return;
    }
    let position = advancePosition(
      this.state.position,
      wall,
      this.state.speed,
      next.t,
      this.state.skipIdle ? IDLE_CAP_SECONDS : null,
    );
    // Never run ahead of what has arrived.
    const last = this.queue.at(-1);
    if (!this.reader.done && last) position = Math.min(position, last.t);
    this.set({ position });
    this.render();
    this.fill();
  }

  /** Stops playing, drops reads in flight and lets go of the terminal (start may follow again). */
  stop(): void {
    this.stopped = true;
    this.generation += 1;
    this.stopTimer();
    if (this.state.playing) this.set({ playing: false });
  }

  private async seekToOffset(
    t: number,
    offset: number,
    generation: number,
    showEvent: boolean,
    started: number,
  ): Promise<void> {
    const { start, skipPartialLine } = contextStart(offset, this.eventsStart, CONTEXT_BYTES);
    // Reading from elsewhere than the front: the events in memory no longer run from the start.
    this.memory.forget();
    this.reader.reset(start, this.size, skipPartialLine);
    const window = this.options.windowBytes ?? WINDOW_BYTES;
    const events = await this.reader.readNext(offset - start + window);
    if (events === null || this.stale(generation)) return;
    const at = events.findIndex((event) => event.offset >= offset);
    const split = at < 0 ? events.length : at;
    await this.rebuild(events.slice(0, split), events.slice(split), t, showEvent, generation, started);
  }

  /** A seek in a recording read whole: the same screen, found in memory. */
  private seekInMemory(t: number, offset: number | null, generation: number, started: number): void {
    const { context, queue } = this.memory.around(t, offset, this.size, CONTEXT_BYTES);
    void this.rebuild(context, queue, t, offset !== null, generation, started);
  }

  /** Redraws the screen from the context before the seek point, then queues what follows. */
  private async rebuild(
    context: PlacedEvent[],
    queue: PlacedEvent[],
    t: number,
    showEvent: boolean,
    generation: number,
    started: number,
  ): Promise<void> {
    this.queue = queue;
    const header = this.state.header;
    this.sink.reset();
    if (header) {
      const size = headerSize(header);
      this.sink.resize(size.cols, size.rows);
    }
    this.apply(context);
    const first = this.queue[0];
    const position = showEvent && first ? Math.max(t, first.t) : t;
    this.lastTick = this.now();
    this.set({ position: clampTime(position, Math.max(this.state.duration, position)), buffering: false });
    this.render();
    this.fill();
    await this.sink.flushed?.();
    if (!this.stale(generation)) this.set({ seekMs: Math.round(this.now() - started) });
  }

  /** The whole file has been read front to back: seeks need no request. */
  private get complete(): boolean {
    return this.memory.whole && this.reader.done && !this.reader.busy;
  }

  /** Writes the events due at the current position. */
  private render(): void {
    this.apply(takeDue(this.queue, this.state.position));
    if (this.queue.length === 0 && this.reader.done && this.state.playing) this.atEndOfQueue();
  }

  private apply(events: PlacedEvent[]): void {
    for (const op of toTerminalOps(events)) {
      if (op.kind === 'write') this.sink.write(op.data);
      else this.sink.resize(op.cols, op.rows);
    }
  }

  private atEndOfQueue(): void {
    if (!this.reader.done) {
      if (!this.state.buffering) this.set({ buffering: true });
      this.fill();
      return;
    }
    if (this.live) {
      this.pollEnd();
      return;
    }
    this.stopTimer();
    this.set({ playing: false, ended: true, position: this.state.duration });
  }

  /** A live recording grows: look for new bytes now and then while caught up. */
  private pollEnd(): void {
    const now = this.now();
    if (this.polling || now - this.lastPoll < LIVE_POLL_MS) return;
    this.polling = true;
    this.lastPoll = now;
    const generation = this.generation;
    this.source.seek(END).then(
      (end) => {
        this.polling = false;
        if (this.stale(generation)) return;
        this.size = Math.max(this.size, end.size);
        this.reader.extend(this.size);
        this.set({ duration: Math.max(this.state.duration, end.duration) });
        this.fill();
      },
      () => {
        this.polling = false;
      },
    );
  }

  /** Fetches the next window when few events remain queued: fewer than 2000, and less than a window of bytes. */
  private fill(): void {
    if (this.reader.done || this.reader.busy || this.queue.length >= LOW_WATER_EVENTS) return;
    const first = this.queue[0];
    const last = this.queue.at(-1);
    if (first && last && last.offset - first.offset >= (this.options.windowBytes ?? WINDOW_BYTES)) return;
    const generation = this.generation;
    this.reader.readNext().then(
      (events) => {
        if (events === null || this.stale(generation)) return;
        this.queue.push(...events);
        this.memory.remember(events);
        if (this.state.buffering) this.set({ buffering: false });
        this.fill();
      },
      (error: unknown) => {
        if (!this.stale(generation)) this.fail(error);
      },
    );
  }

  private stale(generation: number): boolean {
    return this.stopped || generation !== this.generation;
  }

  private fail(error: unknown): void {
    this.stopTimer();
    this.set({ status: 'error', playing: false, buffering: false, error: (error as Error).message || String(error) });
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private now(): number {
    return this.options.now?.() ?? performance.now();
  }

  private set(patch: Partial<ReplayState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
