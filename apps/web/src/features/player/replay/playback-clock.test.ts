import { describe, expect, it } from 'vitest';
import { advancePosition, formatClock, parseClock, parseSize, takeDue, toTerminalOps } from './playback-clock';

const at = (t: number, data = `${String(t)}`) => ({ t, type: 'o' as const, data, offset: t * 10 });

describe('playback clock', () => {
  it('moves at the chosen speed', () => {
    expect(advancePosition(10, 0.5, 1, 20, null)).toBe(10.5);
    expect(advancePosition(10, 0.5, 8, 20, null)).toBe(14);
    expect(advancePosition(10, 1, 0.5, 20, null)).toBe(10.5);
  });

  it('caps a long pause at the idle limit when skipping idle time', () => {
    // An hour of nothing: skipping leaves two seconds of it.
    expect(advancePosition(100, 0.05, 1, 3700, 2)).toBeCloseTo(3698.05);
    expect(advancePosition(100, 0.05, 1, 3700, null)).toBeCloseTo(100.05);
    // A short pause is left as it is.
    expect(advancePosition(100, 0.05, 1, 101, 2)).toBeCloseTo(100.05);
  });

  it('takes only the events due, in order', () => {
    const queue = [at(1), at(2), at(2), at(5)];
    expect(takeDue(queue, 2).map((e) => e.t)).toEqual([1, 2, 2]);
    expect(queue.map((e) => e.t)).toEqual([5]);
    expect(takeDue(queue, 4.99)).toEqual([]);
  });

  it('never writes a marker event (a live file transfer or channel kind) to the terminal', () => {
    const ops = toTerminalOps([
      { type: 'o', data: 'a' },
      { type: 'm', data: '{"type":"file-transfer","op":"upload","path":"/etc/passwd"}' },
      { type: 'o', data: 'b' },
    ]);
    expect(ops).toEqual([{ kind: 'write', data: 'ab' }]);
  });

  it('joins output into one write, keeps resizes in place and leaves input out', () => {
    const ops = toTerminalOps([
      { type: 'o', data: 'a' },
      { type: 'o', data: 'b' },
      { type: 'i', data: 'typed' },
      { type: 'r', data: '120x40' },
      { type: 'r', data: 'garbage' },
      { type: 'o', data: 'c' },
    ]);
    expect(ops).toEqual([
      { kind: 'write', data: 'ab' },
      { kind: 'resize', cols: 120, rows: 40 },
      { kind: 'write', data: 'c' },
    ]);
    expect(parseSize('0x10')).toBeNull();
  });

  it('formats and reads times', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(75.9)).toBe('1:15');
    expect(formatClock(86_399)).toBe('23:59:59');
    expect(parseClock('23:59:59')).toBe(86_399);
    expect(parseClock('1:15')).toBe(75);
    expect(parseClock('90')).toBe(90);
    expect(parseClock('1h 2m')).toBe(3720);
    expect(parseClock('soon')).toBeNull();
    expect(parseClock('')).toBeNull();
  });
});
