import { describe, expect, it } from 'vitest';
import type { PlacedEvent } from './cast-stream';
import { EventMemory } from './event-memory';

const events: PlacedEvent[] = Array.from({ length: 100 }, (_, i) => ({
  t: i * 2,
  type: 'o',
  data: `line ${String(i)}\r\n`,
  offset: 50 + i * 10,
}));

describe('event memory', () => {
  it('splits at the first event at or after a time, with the context bytes before it', () => {
    const memory = new EventMemory();
    memory.remember(events.slice(0, 60));
    memory.remember(events.slice(60));
    const { context, queue } = memory.around(41, null, 1050, 30);
    expect(queue[0]?.t).toBe(42);
    expect(queue).toHaveLength(79);
    // The point is at offset 260; 230, 240 and 250 lie within the 30 bytes before it.
    expect(queue[0]?.offset).toBe(260);
    expect(context.map((e) => e.offset)).toEqual([230, 240, 250]);
  });

  it('splits at a search hit by its offset, and past the end gives everything as context', () => {
    const memory = new EventMemory();
    memory.remember(events);
    expect(memory.around(0, 550, 1050, 1000).queue[0]?.offset).toBe(550);
    const end = memory.around(10_000, null, 1050, 10_000);
    expect(end.queue).toEqual([]);
    expect(end.context).toHaveLength(100);
  });

  it('forgets after a read from elsewhere and past its cap', () => {
    const memory = new EventMemory();
    memory.forget();
    memory.remember(events);
    expect(memory.whole).toBe(false);
    const big = new EventMemory();
    big.remember(Array.from({ length: 200_001 }, (_, i) => ({ t: i, type: 'o' as const, data: '', offset: i })));
    expect(big.whole).toBe(false);
  });
});
