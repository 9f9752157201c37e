import net, { type Socket } from 'node:net';

/** The caps an Admission applies, read again at every connection. */
export interface AdmissionLimits {
  /** Connections from one address (an IPv6 /64) not yet authenticated; 0 sets no cap per address. */
  perAddress: number;
  /** Connections not yet authenticated, from all addresses together. */
  total: number;
}

/** Why a connection was refused: its address holds its share, or the listener holds its total. */
export type Refusal = 'per-address' | 'total';

/** One admitted connection, counted until it is released (authenticated or closed; twice is harmless). */
export interface AdmissionTicket {
  /** The address as counted: IPv4, or the IPv6 /64 it belongs to. */
  readonly address: string;
  readonly release: () => void;
}

/**
 * Counts connections that have not authenticated yet, per source address and in total, and refuses
 * one past either cap. Only counts live in memory: a connection is held by one process, so its
 * count is this process's (several instances each apply the caps to what they hold).
 */
export class Admission {
  private readonly byAddress = new Map<string, number>();
  private count = 0;

  constructor(private readonly limits: () => AdmissionLimits) {}

  /** Connections not yet authenticated, in total. */
  get pending(): number {
    return this.count;
  }

  /** Connections not yet authenticated from the address (or its /64). */
  pendingFrom(ip: string): number {
    return this.byAddress.get(addressKey(ip)) ?? 0;
  }

  /** Counts a new connection from `ip`, or answers why it is refused (then nothing is counted). */
  admit(ip: string): AdmissionTicket | Refusal {
    const address = addressKey(ip);
    const { perAddress, total } = this.limits();
    const held = this.byAddress.get(address) ?? 0;
    if (perAddress > 0 && held >= perAddress) return 'per-address';
    if (this.count >= total) return 'total';
    this.byAddress.set(address, held + 1);
    this.count += 1;
    let released = false;
    return {
      address,
      release: () => {
        if (released) return;
        released = true;
        this.count -= 1;
        const left = (this.byAddress.get(address) ?? 1) - 1;
        if (left > 0) this.byAddress.set(address, left);
        else this.byAddress.delete(address);
      },
    };
  }
}

/**
 * The unit an address is counted in: IPv4 as is (also when mapped into IPv6), IPv6 by its /64,
 * the block one subscriber usually holds (OpenSSH's PerSourceNetBlockSize plays the same part).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  const bare = ip.split('%')[0] ?? ip;
  if (!net.isIPv6(bare)) return ip;
  const [head = '', tail] = bare.split('::');
  const first = head ? head.split(':') : [];
  const last = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? first : [...first, ...Array<string>(8 - first.length - last.length).fill('0'), ...last];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** Ends a socket after what was written: at the client's close, or after `graceMs` at the latest. */
export function endSocket(socket: Socket, bytes?: Buffer, graceMs = 2000): void {
  socket.on('error', () => undefined);
  // Reading on lets the client's own close arrive, so the socket goes without a reset that could drop our words.
  socket.resume();
  if (bytes) socket.end(bytes);
  else socket.end();
  socket.setTimeout(graceMs, () => socket.destroy());
}

/**
 * How many refusals a second are answered with the reason. A refused socket that is answered
 * lingers until the client closes it (a second at most); under a flood that would hold a
 * descriptor per refusal, so past the budget a refused socket is dropped at once.
 */
export class AnswerBudget {
  private second = 0;
  private used = 0;

  constructor(private readonly perSecond = 200) {}

  /** True when this refusal may still be answered. */
  take(): boolean {
    const now = Math.floor(Date.now() / 1000);
    if (now !== this.second) [this.second, this.used] = [now, 0];
    this.used += 1;
    return this.used <= this.perSecond;
  }
}
