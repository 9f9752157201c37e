/**
 * A seeded pseudo-random generator (mulberry32): the mock data is the same on every load, so a
 * screen looks the same after a reload and tests can name what they expect.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** A whole number from min to max, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick needs a non-empty list');
    return item;
  }

  /** `count` distinct items of the list (all of it when it is shorter), in list order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(this.next() * items.length));
    return items.filter((_item, index) => chosen.has(index));
  }

  /** Random bytes. */
  bytes(count: number): Uint8Array {
    return Uint8Array.from({ length: count }, () => Math.floor(this.next() * 256));
  }

  /** A version 4 UUID (RFC 9562 version and variant bits set). */
  uuid(): string {
    const b = this.bytes(16);
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const hex = Array.from(b, (byte) => byte.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** A normally distributed number (Box–Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
  }
}

/** A stable 32-bit seed from a text (FNV-1a), for data derived from a name or an id. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Base64 of bytes (btoa exists in browsers and in Node). */
export function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}
