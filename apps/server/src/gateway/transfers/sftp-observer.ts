import { Cursor, type Step, StepReader, Unparsable } from './step-reader.js';
import { FileDigest, type ReorderBudget, type TransferEvent, type TransferSink, clean } from './transfer-event.js';

/**
 * Packets longer than this stop the observer (OpenSSH's limit is 256 KiB). Their data is streamed,
 * never held, so the bound is about what is plausible, not about memory.
 */
export const MAX_PACKET = 4 * 1024 * 1024;
/** Requests whose fields are read whole (paths, handles) may be at most this long. */
const MAX_SMALL = 64 * 1024;
const MAX_HANDLE = 256;
/** Requests awaiting the host's reply, and files open, at most (OpenSSH keeps 64 in flight). */
export const MAX_PENDING = 8192;
export const MAX_HANDLES = 1024;

const FXF_WRITE = 0x02;
const FXF_APPEND = 0x04;
const STATUS_NAMES = [
  'ok',
  'end of file',
  'no such file',
  'permission denied',
  'failure',
  'bad message',
  'no connection',
  'connection lost',
  'operation unsupported',
];

/** Types a client may send in SFTP v3 (draft-ietf-secsh-filexfer-02) and the host may answer. */
const CLIENT_TYPES = new Set([1, ...Array.from({ length: 18 }, (_, i) => i + 3), 200]);
const HOST_TYPES = new Set([2, 101, 102, 103, 104, 105, 201]);

/** A file opened through a handle. */
interface OpenFile {
  path: string;
  write: boolean;
  digest: FileDigest;
  read: boolean;
  /** The first error a read or write of it was answered with. */
  error?: string;
}

type Pending =
  | { kind: 'open'; path: string; write: boolean }
  | { kind: 'read'; file: OpenFile; offset: number }
  | { kind: 'write'; file: OpenFile }
  | { kind: 'close'; handle: string }
  | { kind: 'op'; op: 'rename' | 'remove' | 'mkdir' | 'rmdir' | 'setstat' | 'symlink'; path: string; target?: string };

/**
 * Watches both directions of an sftp subsystem channel as they pass and reports file operations:
 * one event per file closed (read → download, write → upload, with bytes and SHA-256), and
 * rename, remove, mkdir, rmdir, setstat and symlink with the host's answer. It holds nothing but
 * small request fields and a bounded reorder window; on anything it cannot parse it reports one
 * 'unparsable' event and stops, and the channel carries on regardless.
 */
export class SftpObserver {
  private readonly client: StepReader;
  private readonly host: StepReader;
  private readonly pending = new Map<number, Pending>();
  private readonly handles = new Map<string, OpenFile>();
  private readonly budget: ReorderBudget = { bytes: 0, pieces: 0 };
  private done = false;

  constructor(private readonly report: TransferSink) {
    this.client = new StepReader(this.packet(true), (why) => this.fail(why));
    this.host = new StepReader(this.packet(false), (why) => this.fail(why));
  }

  /** Bytes the client sent (on their way to the host). */
  fromClient(data: Buffer): void {
    this.client.push(data);
  }

  /** Bytes the host sent (on their way to the client). */
  fromHost(data: Buffer): void {
    this.host.push(data);
  }

  /** The channel closed: files still open and requests still unanswered are reported as such. */
  end(why = 'the channel closed'): void {
    if (this.done) return;
    this.stopReading();
    for (const file of this.handles.values()) this.fileEvent(file, `not closed (${why} first)`);
    for (const p of this.pending.values()) if (p.kind === 'op') this.opEvent(p, `no answer (${why} first)`);
    this.handles.clear();
    this.pending.clear();
  }

  private fail(why: string): void {
    if (this.done) return;
    this.end('the observer stopped');
    this.report({
      protocol: 'sftp',
      op: 'unparsable',
      path: '',
      direction: null,
      bytes: 0,
      sha256: null,
      outcome: clean(why),
      note: 'The gateway stopped observing this sftp channel; its bytes kept flowing.',
    });
  }

  private stopReading(): void {
    this.done = true;
    this.client.stop();
    this.host.stop();
  }

  /** One packet: its length and type, then its body, then the next packet. */
  private packet(fromClient: boolean): Step {
    return {
      take: 5,
      then: (head) => {
        const length = head.readUInt32BE(0);
        const type = head[4]!;
        if (length < 1 || length > MAX_PACKET) throw new Unparsable(`an sftp packet of ${length} bytes`);
        if (!(fromClient ? CLIENT_TYPES : HOST_TYPES).has(type))
          throw new Unparsable(`an sftp packet of unknown type ${type} from the ${fromClient ? 'client' : 'host'}`);
        const rest = length - 1;
        const next = () => this.packet(fromClient);
        if (fromClient && type === 6) return this.write(rest, next);
        if (!fromClient && type === 103) return this.data(rest, next);
        if (!this.interesting(fromClient, type)) return { skip: rest, then: next };
        if (rest > MAX_SMALL) throw new Unparsable(`an sftp request of type ${type} longer than ${MAX_SMALL} bytes`);
        return {
          take: rest,
          then: (body) => {
            if (fromClient) this.request(type, new Cursor(body));
            else this.reply(type, new Cursor(body));
            return next();
          },
        };
      },
    };
  }

  private interesting(fromClient: boolean, type: number): boolean {
    if (!fromClient) return type === 2 || type === 101 || type === 102;
    return [1, 3, 4, 5, 9, 10, 13, 14, 15, 18, 20, 200].includes(type);
  }

  /** WRITE: id, handle, offset, then the data, streamed into the file's digest. */
  private write(rest: number, next: () => Step): Step {
    if (rest < 8) throw new Unparsable('a truncated sftp write');
    return {
      take: 8,
      then: (a) => {
        const id = a.readUInt32BE(0);
        const handleLength = a.readUInt32BE(4);
        if (handleLength > MAX_HANDLE || 8 + handleLength + 12 > rest)
          throw new Unparsable('an sftp write with a malformed handle');
        return {
          take: handleLength + 12,
          then: (b) => {
            const handle = b.subarray(0, handleLength).toString('latin1');
            const c = new Cursor(b.subarray(handleLength));
            const offset = c.u64();
            const length = c.u32();
            const used = 8 + handleLength + 12;
            if (used + length > rest) throw new Unparsable('an sftp write longer than its packet');
            const file = this.handles.get(handle);
            if (file) this.expect(id, { kind: 'write', file });
            let at = offset;
            return {
              stream: length,
              to: (piece) => {
                if (file?.write) file.digest.add(at, piece);
                at += piece.length;
              },
              then: () => ({ skip: rest - used - length, then: next }),
            };
          },
        };
      },
    };
  }

  /** DATA: id, then the data, streamed into the digest of the file the READ named. */
  private data(rest: number, next: () => Step): Step {
    if (rest < 8) throw new Unparsable('a truncated sftp data reply');
    return {
      take: 8,
      then: (a) => {
        const id = a.readUInt32BE(0);
        const length = a.readUInt32BE(4);
        if (8 + length > rest) throw new Unparsable('an sftp data reply longer than its packet');
        const p = this.answered(id);
        const read = p?.kind === 'read' ? p : undefined;
        let at = read?.offset ?? 0;
        return {
          stream: length,
          to: (piece) => {
            if (read && !read.file.write) read.file.digest.add(at, piece);
            at += piece.length;
          },
          then: () => ({ skip: rest - 8 - length, then: next }),
        };
      },
    };
  }

  private request(type: number, c: Cursor): void {
    if (type === 1) return; // INIT: the version the client offers; the host's VERSION decides
    const id = c.u32();
    switch (type) {
      case 3: {
        const path = c.text();
        const flags = c.u32();
        return this.expect(id, { kind: 'open', path, write: (flags & (FXF_WRITE | FXF_APPEND)) !== 0 });
      }
      case 4:
        return this.expect(id, { kind: 'close', handle: c.bytesField().toString('latin1') });
      case 5: {
        const file = this.handles.get(c.bytesField().toString('latin1'));
        const offset = c.u64();
        if (file) {
          file.read = true;
          this.expect(id, { kind: 'read', file, offset });
        }
        return;
      }
      case 9:
        return this.expect(id, { kind: 'op', op: 'setstat', path: c.text() });
      case 10: {
        const file = this.handles.get(c.bytesField().toString('latin1'));
        if (file) this.expect(id, { kind: 'op', op: 'setstat', path: file.path });
        return;
      }
      case 13:
        return this.expect(id, { kind: 'op', op: 'remove', path: c.text() });
      case 14:
        return this.expect(id, { kind: 'op', op: 'mkdir', path: c.text() });
      case 15:
        return this.expect(id, { kind: 'op', op: 'rmdir', path: c.text() });
      case 18: {
        const path = c.text();
        return this.expect(id, { kind: 'op', op: 'rename', path, target: c.text() });
      }
      case 20: {
        // OpenSSH sends the link's target first and the link's path second (the reverse of the draft).
        const target = c.text();
        return this.expect(id, { kind: 'op', op: 'symlink', path: c.text(), target });
      }
      case 200: {
        const name = c.text();
        if (name === 'posix-rename@openssh.com') {
          const path = c.text();
          this.expect(id, { kind: 'op', op: 'rename', path, target: c.text() });
        }
        return;
      }
      default:
        return;
    }
  }

  private reply(type: number, c: Cursor): void {
    if (type === 2) {
      const version = c.u32();
      if (version !== 3) throw new Unparsable(`sftp version ${version} (only version 3 is observed)`);
      return;
    }
    const id = c.u32();
    const p = this.answered(id);
    if (!p) return;
    if (type === 102) {
      const handle = c.bytesField().toString('latin1');
      if (p.kind !== 'open') return;
      if (handle.length > MAX_HANDLE) throw new Unparsable('an sftp handle longer than 256 bytes');
      if (this.handles.size >= MAX_HANDLES && !this.handles.has(handle))
        throw new Unparsable(`more than ${MAX_HANDLES} files open at once`);
      this.handles.set(handle, { path: p.path, write: p.write, digest: new FileDigest(this.budget), read: false });
      return;
    }
    // STATUS
    const code = c.u32();
    const message = c.text();
    const outcome = code === 0 ? 'ok' : clean(message || STATUS_NAMES[code] || `status ${code}`);
    switch (p.kind) {
      case 'open':
        return this.report({
          protocol: 'sftp',
          op: p.write ? 'write' : 'read',
          path: clean(p.path),
          direction: p.write ? 'upload' : 'download',
          bytes: 0,
          sha256: null,
          outcome,
          note: 'The host refused to open the file.',
        });
      case 'read':
      case 'write':
        // End of file answers a read past the end: not an error.
        if (code !== 0 && code !== 1) p.file.error ??= outcome;
        return;
      case 'close': {
        const file = this.handles.get(p.handle);
        if (!file) return;
        this.handles.delete(p.handle);
        return this.fileEvent(file, outcome);
      }
      case 'op':
        return this.opEvent(p, outcome);
    }
  }

  private expect(id: number, p: Pending): void {
    if (this.pending.size >= MAX_PENDING && !this.pending.has(id))
      throw new Unparsable(`more than ${MAX_PENDING} sftp requests unanswered`);
    this.pending.set(id, p);
  }

  private answered(id: number): Pending | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  private fileEvent(file: OpenFile, closeOutcome: string): void {
    const { sha256, note } = file.digest.result();
    const op: TransferEvent['op'] = file.write ? 'write' : file.read ? 'read' : 'open';
    this.report({
      protocol: 'sftp',
      op,
      path: clean(file.path),
      direction: file.write ? 'upload' : file.read ? 'download' : null,
      bytes: file.digest.bytes,
      sha256: op === 'open' ? null : sha256,
      outcome: file.error ?? closeOutcome,
      ...(note && op !== 'open' ? { note } : {}),
    });
  }

  private opEvent(p: Extract<Pending, { kind: 'op' }>, outcome: string): void {
    this.report({
      protocol: 'sftp',
      op: p.op,
      path: clean(p.path),
      ...(p.target === undefined ? {} : { target: clean(p.target) }),
      direction: null,
      bytes: 0,
      sha256: null,
      outcome,
    });
  }
}
