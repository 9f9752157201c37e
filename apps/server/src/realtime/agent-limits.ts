/**
 * Limits on what one agent socket may send, by kind of message. Each kind has a token bucket
 * (a burst, then a steady rate); running one dry is a flood, and the session closes the socket.
 * Data frames of open streams are not counted here: the mux's credit window bounds them
 * (MuxStream.receive refuses bytes past it), as it bounds acknowledgements (only bytes sent are
 * acknowledged).
 */
export const AGENT_MESSAGE_LIMITS = {
  /** Once per connection; a few repeats are applied again (an agent may re-announce itself). */
  hello: { burst: 4, perSecond: 1 / 60 },
  /** Sent once for each config the server pushes. */
  'config-applied': { burst: 20, perSecond: 2 },
  /** opened, refused, end, close of streams the server opened: a few hundred a second. */
  control: { burst: 400, perSecond: 300 },
  /**
   * Frames and messages naming a stream that is not open: a stream just closed may still get
   * what was in flight, a stream never opened is a forgery. Both are counted; past this, closed.
   */
  'unknown-stream': { burst: 1000, perSecond: 200 },
  /** Capture status of rdp sessions (issue 18): a few per session as its capture changes. */
  capture: { burst: 100, perSecond: 10 },
} as const;

/**
 * Connections one agent may open a minute (counted in SQL, so across instances): enough for any
 * honest reconnecting, and a bound on what a flooding agent that reconnects at once can cost.
 */
export const AGENT_CONNECTS_PER_MINUTE = 30;

/** A kind of agent message the limits count. */
export type AgentMessageKind = keyof typeof AGENT_MESSAGE_LIMITS;

/** A token bucket: `burst` tokens, refilled at `perSecond`. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** One socket's buckets and how many of each kind it sent. */
export class AgentMessageLimits {
  private readonly buckets = new Map<AgentMessageKind, Bucket>();
  /** Messages of each kind received so far, counted also past the limit (for the audit entry). */
  readonly counts: Partial<Record<AgentMessageKind | 'data', number>> = {};

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** Counts one message; false when its kind is over its limit. */
  take(kind: AgentMessageKind): boolean {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    const now = this.clock();
    let bucket = this.buckets.get(kind);
    if (!bucket) {
      bucket = new Bucket(AGENT_MESSAGE_LIMITS[kind].burst, AGENT_MESSAGE_LIMITS[kind].perSecond, now);
      this.buckets.set(kind, bucket);
    }
    return bucket.take(now);
  }

  /** Counts a data frame (bounded by the mux, not by a bucket). */
  countData(): void {
    this.counts.data = (this.counts.data ?? 0) + 1;
  }
}
