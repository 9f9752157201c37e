import { describe, expect, it } from 'vitest';
import { FLOOD_BACKOFF_MS, MAX_BACKOFF_MS, backoffDelay, floodDelay } from './backoff.js';

describe('the agent’s reconnect delay', () => {
  it('starts under half a second and doubles up to the cap', () => {
    const top = (attempt: number) => backoffDelay(attempt, () => 1);
    expect([0, 1, 2, 3, 4, 5].map(top)).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
  });

  it('never waits more than 5 s however long the server stays away (a 40 s outage is 10 or more attempts)', () => {
    for (const attempt of [4, 10, 11, 50, 1000]) {
      expect(backoffDelay(attempt, () => 0.999_999)).toBeLessThanOrEqual(MAX_BACKOFF_MS);
    }
    expect(MAX_BACKOFF_MS).toBe(5000);
  });

  it('spreads a fleet over the upper half of each interval (half jitter), never to zero', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(20, () => 0)).toBe(2500);
    const delays = Array.from({ length: 200 }, () => backoffDelay(8));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(2500);
    expect(Math.max(...delays)).toBeLessThanOrEqual(5000);
    expect(new Set(delays).size).toBeGreaterThan(50);
  });

  it('waits 30 to 60 s after the server closed it for flooding, far longer than any outage delay', () => {
    expect(floodDelay(() => 0)).toBe(FLOOD_BACKOFF_MS / 2);
    expect(floodDelay(() => 1)).toBe(FLOOD_BACKOFF_MS);
    expect(floodDelay(() => 0)).toBeGreaterThanOrEqual(6 * MAX_BACKOFF_MS);
  });
});
