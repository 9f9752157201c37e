import type { PlacedEvent } from './cast-stream';

/** Events kept for seeking in memory: a few MB of a typical session; longer ones seek through the server. */
const EVENTS_CAP = 200_000;

/**
 * Every event from the start of the file while it is read front to back, up to a cap. Once the
 * reader has reached the end this way, a seek or a search jump is answered from here, without a
 * request. Reading from anywhere else (a seek through the server) makes it forget.
 */
export class EventMemory {
  private events: PlacedEvent[] | null = [];

  /** Still holds every event read since the start. */
  get whole(): boolean {
    return this.events !== null;
  }

  /** Adds the next events read in order; past the cap it gives up. */
  remember(events: readonly PlacedEvent[]): void {
    if (!this.events) return;
    if (this.events.length + events.length > EVENTS_CAP) this.events = null;
    else for (const event of events) this.events.push(event);
  }

  /** The file was read from elsewhere than the front. */
  forget(): void {
    this.events = null;
  }

  /**
   * The events of the `contextBytes` before the seek point, and those from it on. The point is the
   * first event at or after `t`, or the event at `offset` when one is given (a search hit).
   */
  around(
    t: number,
    offset: number | null,
    size: number,
    contextBytes: number,
  ): { context: PlacedEvent[]; queue: PlacedEvent[] } {
    const all = this.events ?? [];
    const index =
      offset === null ? lowerBound(all, (event) => event.t < t) : lowerBound(all, (event) => event.offset < offset);
    const at = all[index]?.offset ?? size;
    const from = lowerBound(all, (event) => event.offset < at - contextBytes);
    return { context: all.slice(from, index), queue: all.slice(index) };
  }
}

/** The first index whose item is not `before` (items sorted so that `before` holds for a prefix). */
function lowerBound<T>(items: readonly T[], before: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(items[mid] as T)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
