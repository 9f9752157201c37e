import { DESKTOP_LIMITS, DesktopHello } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DESKTOP_MAX, defaultDesktopMax, desktopMax } from './desktop-endpoint.js';
import { DESKTOP_CANVAS, DESKTOP_CANVAS_MAX, desktopCanvas } from './desktop-session.js';

// The gateway's X screen is filmed whole, so its area is what each browser desktop costs to encode.
describe('the X screen of a browser desktop', () => {
  it('is as large as the browser’s screen when the browser says, and the default otherwise', () => {
    expect(desktopCanvas({ width: 800, height: 600 }, { width: 1440, height: 900 })).toEqual({
      width: 1440,
      height: 900,
    });
    expect(desktopCanvas({ width: 800, height: 600 })).toEqual(DESKTOP_CANVAS);
  });

  it('is never smaller than the size the desktop starts at, and always even', () => {
    // A phone: its screen is narrower than the smallest desktop the gateway starts.
    expect(desktopCanvas({ width: 640, height: 480 }, { width: 390, height: 844 })).toEqual({
      width: 640,
      height: 844,
    });
    expect(desktopCanvas({ width: 911, height: 601 }, { width: 901, height: 599 })).toEqual({
      width: 912,
      height: 602,
    });
  });

  it('is at most 3840x2160, whatever the browser claims', () => {
    expect(
      desktopCanvas(
        { width: DESKTOP_LIMITS.maxWidth, height: DESKTOP_LIMITS.maxHeight },
        { width: 16384, height: 16384 },
      ),
    ).toEqual(DESKTOP_CANVAS_MAX);
  });
});

describe('the hello’s screen', () => {
  const hello = { token: 't', username: 'u', password: 'p', width: 800, height: 600 };

  it('is optional, and whole positive numbers up to 16384', () => {
    expect(DesktopHello.safeParse(hello).success).toBe(true);
    expect(DesktopHello.safeParse({ ...hello, screen: { width: 1440, height: 900 } }).success).toBe(true);
    for (const screen of [
      { width: 0, height: 900 },
      { width: 1.5, height: 900 },
      { width: 1440 },
      { width: '1440', height: 900 },
      { width: 1e9, height: 900 },
    ])
      expect(DesktopHello.safeParse({ ...hello, screen }).success, JSON.stringify(screen)).toBe(false);
  });
});

describe('how many browser desktops an instance runs at once', () => {
  const GiB = 1024 ** 3;

  it('is sized by the machine when GATEHOUSE_DESKTOP_MAX is unset: five a core, half the memory, at most 25', () => {
    expect(desktopMax({}, { cores: 2, memory: 24 * GiB })).toBe(10);
    expect(desktopMax({}, { cores: 16, memory: 64 * GiB })).toBe(DEFAULT_DESKTOP_MAX);
    expect(desktopMax({}, { cores: 8, memory: 4 * GiB })).toBe(6);
    expect(defaultDesktopMax(1, 256 * 1024 ** 2)).toBe(1);
  });

  it('follows GATEHOUSE_DESKTOP_MAX when set, 0 turning desktops off, and refuses nonsense', () => {
    expect(desktopMax({ GATEHOUSE_DESKTOP_MAX: '40' }, { cores: 2, memory: GiB })).toBe(40);
    expect(desktopMax({ GATEHOUSE_DESKTOP_MAX: '0' })).toBe(0);
    for (const bad of ['-1', '2.5', 'many'])
      expect(() => desktopMax({ GATEHOUSE_DESKTOP_MAX: bad })).toThrow(/whole number/);
  });
});
