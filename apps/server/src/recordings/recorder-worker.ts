import { Worker } from 'node:worker_threads';
import type { CastEvent } from '@gatehouse/contracts';
import { JSON_ESCAPE_WASM } from './json-escape.js';

/**
 * The recorder's heavy half, on its own thread: UTF-8 decoding, JSON encoding, the hash chain and
 * the appends. The gateway's thread only collects raw bytes and hands them over (one copy, then a
 * transfer), so recording costs it next to nothing. Plain JavaScript run with `eval`, so it works
 * from the built server and from the TypeScript sources under test alike; the chain and the line
 * format are those of chain.ts and the asciicast writer (recorder.test.ts verifies files it wrote).
 */
const SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
const { StringDecoder } = require('node:string_decoder');
const { isAscii } = require('node:buffer');
const recordings = new Map();
// The most raw bytes one line of the file holds; a longer event is written as several lines with
// the same time. Every string made from a piece (its text, its JSON, the line) then stays well
// under V8's 128 KiB limit for ordinary heap objects. Above it each string is a mapping of its own,
// mapped, faulted in and unmapped: 256 KiB events cost the thread 12 ms of CPU per MiB instead of
// under 2 (docs/benchmarks.md, "The relay's garbage collection and the recorder's strings").
const PIECE = 16 * 1024;

function writeAll(fd, buffer) {
  for (let at = 0; at < buffer.length; ) at += fs.writeSync(fd, buffer, at, buffer.length - at);
}

function writeAllAt(fd, buffer, position) {
  for (let at = 0; at < buffer.length; ) at += fs.writeSync(fd, buffer, at, buffer.length - at, position + at);
}

// The same through libuv's thread pool, so the thread encodes the next chunk meanwhile.
function writeAllAtLater(fd, buffer, position) {
  return new Promise((resolve, reject) => {
    const from = (at) =>
      fs.write(fd, buffer, at, buffer.length - at, position + at, (error, n) => {
        if (error) reject(error);
        else if (at + n < buffer.length) from(at + n);
        else resolve();
      });
    from(0);
  });
}

// Bulk chunks bypass the page cache (O_DIRECT): a recording is written once and read rarely, and
// through the cache every recorded MiB took a MiB of it, so a long copy filled the machine's free
// memory with pages nobody reads again, at a cost in system time that grows with it (2-3 ms per
// MiB once the cache grows into memory the hypervisor reclaimed: docs/benchmarks.md, "Fresh
// memory"). Direct I/O needs memory, file offsets and lengths aligned to the device's blocks: a
// chunk is encoded into a WebAssembly memory (page-aligned), each write starts at the block holding
// the file's end (its bytes kept as the recording's tail and written again in front of the chunk),
// and a write that ends inside a block is padded, then the file cut back to its real length. The
// disk takes its time, so there are two such regions: one chunk is written while the next is
// encoded into the other, and writes go one at a time, in order. Small chunks (typing) stay
// buffered: one block written per keystroke's chunk would cost the disk more than the cache.
// GATEHOUSE_RECORDER_BUFFERED=1 turns direct writes off (the benchmarks' comparison); where the
// file system refuses them, the recording falls back to the cache for good.
const ALIGN = 4096;
const DIRECT_MIN = 64 * 1024;
const O_DIRECT = fs.constants.O_DIRECT;
const directWanted = O_DIRECT !== undefined && process.env.GATEHOUSE_RECORDER_BUFFERED !== '1';

// The JSON escaper of ASCII output (json-escape.wat, WebAssembly with SIMD): JSON.stringify's bytes
// at a twelfth of its cost. Each region runs its own instance on the region's memory; where it
// cannot be made (no WebAssembly SIMD), JSON.stringify does it all.
const escaper = (() => {
  try {
    return new WebAssembly.Module(Buffer.from('${JSON_ESCAPE_WASM}', 'base64'));
  } catch {
    return undefined;
  }
})();

function region() {
  try {
    const memory = new WebAssembly.Memory({ initial: 16 });
    let escape;
    try {
      escape = escaper && new WebAssembly.Instance(escaper, { env: { memory } }).exports.escape;
    } catch {
      escape = undefined;
    }
    return { memory, buffer: Buffer.from(memory.buffer), escape };
  } catch {
    return { memory: undefined, buffer: Buffer.alloc(0), escape: undefined };
  }
}
const regions = [region(), region()];
const aligned = regions.every((x) => x.memory);
// The region the next chunk is encoded into; the other may be on its way to the disk.
let scratch = regions[0];

// The region holds at least size bytes (grown, never shrunk; reused by every other chunk).
function ensure(size) {
  if (scratch.buffer.length >= size) return;
  if (scratch.memory) {
    scratch.memory.grow(Math.ceil((size - scratch.memory.buffer.byteLength) / 65536));
    scratch.buffer = Buffer.from(scratch.memory.buffer);
  } else scratch.buffer = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.buffer.length));
}

function directFd(r) {
  if (r.dfd === undefined) {
    try {
      r.dfd = directWanted && aligned ? fs.openSync(r.file, fs.constants.O_WRONLY | O_DIRECT) : null;
    } catch {
      r.dfd = null;
    }
  }
  return r.dfd;
}

// Readies the append of a chunk's bytes, which sit in the current region right after room for the
// tail (buffer[r.tail.length, r.tail.length + bytes.length)), at the recording's end (r.offset,
// which the caller then moves), and moves the tail past them. Answers the write, to be started once
// the write before it is done; it resolves to whether the bytes went past the cache.
function store(r, bytes) {
  const head = r.tail.length;
  const start = r.offset - head;
  const end = r.offset + bytes.length;
  const keep = end % ALIGN;
  const tail = r.tail;
  r.tail =
    bytes.length >= keep
      ? Buffer.from(bytes.subarray(bytes.length - keep))
      : Buffer.concat([tail.subarray(tail.length - (keep - bytes.length)), bytes]);
  const fd = bytes.length >= DIRECT_MIN ? directFd(r) : null;
  if (fd === null) {
    const position = r.offset;
    return async () => {
      writeAllAt(r.fd, bytes, position);
      return false;
    };
  }
  const buffer = scratch.buffer;
  const length = head + bytes.length;
  const padded = Math.ceil(length / ALIGN) * ALIGN;
  tail.copy(buffer, 0);
  buffer.fill(0, length, padded);
  return async () => {
    try {
      await writeAllAtLater(fd, buffer.subarray(0, padded), start);
      if (padded !== length) fs.ftruncateSync(fd, end);
      return true;
    } catch {
      // Refused (a file system without direct I/O, say): the same bytes through the cache, for good.
      if (r.dfd === fd) {
        fs.closeSync(fd);
        r.dfd = null;
      }
      writeAllAt(r.fd, buffer.subarray(0, length), start);
      if (fs.fstatSync(r.fd).size > end) fs.ftruncateSync(r.fd, end);
      return false;
    }
  };
}

// Plain ASCII with no character split before it: latin1 is the same text, and cheaper both ways.
function decode(r, kind, bytes) {
  const decoder = r.decoders[kind];
  if (decoder.lastNeed === 0 && isAscii(bytes)) return [bytes.toString('latin1'), true];
  return [decoder.write(bytes), false];
}

// Output that is not text goes into the file as [t, "b", base64] (CAST_BYTES in the contracts): its
// JSON string would take more than twice its bytes (NUL is 6 bytes as \u0000; base64 takes 4 per 3,
// and text, even coloured with escapes, stays under twice and stays readable as 'o'), or it held
// bytes that are not UTF-8, which the text would have replaced by U+FFFD. Only when the bytes are
// whole characters on both ends (the decoder holds nothing before or after), so the event decodes
// on its own; otherwise the text, as before.
function compact(bytes, json, text, whole) {
  if (!whole || bytes.length < 16) return false;
  return json.length > 2 * bytes.length || text.includes('\uFFFD');
}

// A chunk's lines, written straight into the current one of the thread's two aligned regions, which
// holds the worst case before the first line (every byte escaped as \u00xx): no string per line, no
// buffer per line, no joined string. The region is grown when a chunk needs more and reused by the
// chunk after next, once this chunk's write is done (see take()); nothing else keeps it. A fresh
// buffer per chunk was fresh memory per chunk, each page of it faulted in by the kernel. Lines
// start after head bytes, left for the file's last block (store()).
class Lines {
  constructor(head, room) {
    ensure(head + room);
    this.buffer = scratch.buffer;
    this.head = head;
    this.at = head;
  }
  latin1(text) {
    this.at += this.buffer.latin1Write(text, this.at);
  }
  event(t, kind, json, ascii) {
    this.latin1('[' + t + ',"' + kind + '",');
    this.at += ascii ? this.buffer.latin1Write(json, this.at) : this.buffer.utf8Write(json, this.at);
    this.latin1(']\n');
  }
  get size() {
    return this.at - this.head;
  }
  bytes() {
    return this.buffer.subarray(this.head, this.at);
  }
}

// Room for a chunk's lines at worst: six bytes per byte (\u00xx), a line's time and brackets per
// piece (a decoder's held bytes included), a marker's text six bytes per unit, and a block for
// store()'s padding.
function roomFor(m) {
  let room = 6 * m.length + 128 * (m.index.length + Math.ceil(m.length / PIECE) + 2) + ALIGN;
  for (const [, kind, , text] of m.index) if (kind === 'r' || kind === 'm') room += 6 * text.length;
  return room;
}

function chunk(m) {
  const r = recordings.get(m.rid);
  if (!r) throw new Error('the recording is not open');
  const data = Buffer.from(m.data, 0, m.length);
  const room = roomFor(m);
  // ASCII output is escaped from a copy of the chunk in the region, past the lines' room.
  const escape = scratch.escape;
  const input = r.tail.length + room;
  if (escape) ensure(input + m.length);
  const lines = new Lines(r.tail.length, room);
  if (escape) lines.buffer.set(data, input);
  const events = [];
  let at = 0;
  const add = (t, kind, text, ascii) => {
    lines.event(t, kind, JSON.stringify(text), ascii);
    if (m.watched) events.push([t, kind, text]);
  };
  for (const [t, kind, length, text] of m.index) {
    if (kind === 'r' || kind === 'm') {
      // A marker's text is JSON that may name paths in any script: encoded as UTF-8.
      add(t, kind, text, kind === 'r');
      continue;
    }
    const event = data.subarray(at, at + length);
    const base = at;
    at += length;
    // In pieces of at most PIECE bytes, each its own line at the event's time (see PIECE).
    for (let from = 0; from < event.length; from += PIECE) {
      const bytes = event.subarray(from, from + PIECE);
      const before = r.decoders[kind].lastNeed === 0;
      if (kind === 'o' && escape && before && isAscii(bytes)) {
        const line = lines.at;
        lines.latin1('[' + t + ',"o","');
        const end = escape(input + base + from, bytes.length, lines.at);
        // As compact() decides: base64 when the JSON string (with its quotes) is over twice the bytes.
        if (bytes.length >= 16 && end - lines.at + 2 > 2 * bytes.length) {
          lines.at = line;
          lines.event(t, 'b', '"' + bytes.toString('base64') + '"', true);
        } else {
          lines.at = end;
          lines.latin1('"]\n');
        }
        if (m.watched) events.push([t, 'o', bytes.toString('latin1')]);
        continue;
      }
      const [decoded, ascii] = decode(r, kind, bytes);
      if (!decoded) continue;
      if (kind !== 'o') {
        add(t, kind, decoded, ascii);
        continue;
      }
      const json = JSON.stringify(decoded);
      if (compact(bytes, json, decoded, before && r.decoders[kind].lastNeed === 0)) {
        lines.event(t, 'b', '"' + bytes.toString('base64') + '"', true);
      } else lines.event(t, 'o', json, ascii);
      if (m.watched) events.push([t, 'o', decoded]);
    }
  }
  if (m.final) {
    for (const kind of ['o', 'i']) {
      const rest = r.decoders[kind].end();
      if (rest) add(m.t, kind, rest, false);
    }
  }
  let write = async () => false;
  let chainLine;
  if (lines.size > 0) {
    const bytes = lines.bytes();
    r.seq += 1;
    r.chain = createHash('sha256').update(r.chain, 'hex').update(bytes).digest('hex');
    if (m.watched) parentPort.postMessage({ op: 'sealed', rid: m.rid, seq: r.seq, events });
    write = store(r, bytes);
    chainLine = Buffer.from(r.seq + ' ' + r.offset + ' ' + bytes.length + ' ' + r.chain + '\n');
    r.offset += bytes.length;
    scratch = scratch === regions[0] ? regions[1] : regions[0];
  }
  if (m.final) recordings.delete(m.rid);
  const written = { op: 'written', rid: m.rid, seq: r.seq, bytes: r.offset, chainHead: r.chain, raw: m.raw, data: m.data };
  // Once the write before it is done: the chunk's bytes, its chain line, then the answer.
  return async () => {
    written.direct = await write();
    if (chainLine) writeAll(r.chainFd, chainLine);
    if (m.final) {
      fs.closeSync(r.fd);
      if (r.dfd) fs.closeSync(r.dfd);
      fs.closeSync(r.chainFd);
    }
    // The chunk's memory goes back to the gateway's thread, which fills it again (recorder-worker.ts,
    // RecorderWorker.buffer): nothing here holds a view of it past this point.
    parentPort.postMessage(written, [m.data]);
  };
}

function fail(m, error) {
  parentPort.postMessage({ op: 'failed', rid: m.rid, message: String((error && error.message) || error) });
}

// Messages are taken in order, each once the one before it has started its write; that write is
// awaited before the next one starts, so at most one chunk is on its way to the disk while the
// next is encoded (into the other region: see store()).
let queue = Promise.resolve();
let writing = Promise.resolve();
async function take(m) {
  try {
    if (m.op === 'open') return open(m);
    const write = chunk(m);
    await writing;
    writing = write().catch((error) => fail(m, error));
  } catch (error) {
    fail(m, error);
  }
}

// Written at explicit offsets (store()), so not opened for appending; the tail is the file's last
// partial block (its header, at first), written again in front of a direct write.
function open(m) {
  const fd = fs.openSync(m.file, 'r+');
  const tail = Buffer.alloc(m.offset % ALIGN);
  fs.readSync(fd, tail, 0, tail.length, m.offset - tail.length);
  recordings.set(m.rid, {
    file: m.file,
    fd,
    dfd: undefined,
    tail,
    chainFd: fs.openSync(m.file + '.chain', 'a'),
    seq: 0,
    offset: m.offset,
    chain: m.chain,
    decoders: { o: new StringDecoder('utf8'), i: new StringDecoder('utf8') },
  });
}

parentPort.on('message', (m) => {
  queue = queue.then(() => take(m));
});
`;

/** One event of a chunk as handed over: time, kind, raw byte count, and the text of a resize or marker. */
export type IndexEntry = [number, 'o' | 'i' | 'r' | 'm', number, string?];

/** What the worker answers about one recording. */
export type WorkerReply =
  | { op: 'sealed'; rid: number; seq: number; events: CastEvent[] }
  | {
      op: 'written';
      rid: number;
      seq: number;
      bytes: number;
      chainHead: string;
      raw: number;
      data?: ArrayBuffer;
      /** The chunk went to the disk past the page cache. */
      direct?: boolean;
    }
  | { op: 'failed'; rid: number; message: string };

/** What a recorder registers to hear its replies. */
export interface WorkerClient {
  reply(message: WorkerReply): void;
}

/**
 * Chunks' memory, handed back by the thread once a chunk is written and filled again by the next:
 * a fresh buffer per chunk was half a megabyte of new memory several hundred times a second in a
 * bulk copy, each page faulted in (and zeroed) by the kernel on the gateway's thread and its
 * release left to the collector (docs/benchmarks.md, "Fresh memory"). Buffers of this size are
 * kept; a chunk larger than it (a flush after one very large write) gets memory of its own.
 */
export const POOLED_BYTES = 640 * 1024;
/**
 * Smaller chunks (a few keys typed, a prompt) get memory of their own, of their size: a thousand
 * interactive sessions each flushing a few bytes every FLUSH_MS must not each take a pooled buffer.
 */
const POOLED_MIN = 64 * 1024;
/** Enough for every chunk in flight at the recorders' high water mark, and then some. */
const POOL_MAX = 8;

/** The one encoding thread of this process, shared by every recording. */
export class RecorderWorker {
  private readonly worker: Worker;
  private readonly clients = new Map<number, WorkerClient>();
  private nextId = 0;
  /** Chunks handed over and not yet answered: while any are, the thread keeps the process alive. */
  private inFlight = 0;
  private readonly pool: ArrayBuffer[] = [];
  /** Chunks written past the page cache (O_DIRECT), since the thread started. */
  directWrites = 0;
  dead = false;

  constructor() {
    this.worker = new Worker(SOURCE, { eval: true });
    this.worker.on('message', (m: WorkerReply) => {
      if (m.op !== 'sealed' && --this.inFlight === 0) this.worker.unref();
      if (m.op === 'written' && m.direct) this.directWrites += 1;
      if (m.op === 'written' && m.data && m.data.byteLength === POOLED_BYTES && this.pool.length < POOL_MAX) {
        this.pool.push(m.data);
      }
      this.clients.get(m.rid)?.reply(m);
    });
    const fail = (why: string) => {
      this.dead = true;
      for (const [rid, client] of this.clients) client.reply({ op: 'failed', rid, message: why });
      this.clients.clear();
    };
    this.worker.on('error', (error) => fail(error.message));
    this.worker.on('exit', (code) => fail(`the recording thread exited (${code})`));
    // Idle, it must not keep the process alive (after the listeners, which would hold it again);
    // chunk() holds it while a chunk is on its way to the disk.
    this.worker.unref();
  }

  /** Opens a recording's files (created with their header) for appending; answers its id. */
  open(client: WorkerClient, file: string, offset: number, chain: string): number {
    this.nextId += 1;
    const rid = this.nextId;
    this.clients.set(rid, client);
    this.worker.postMessage({ op: 'open', rid, file, offset, chain });
    return rid;
  }

  /** How many chunks' buffers wait to be filled again. */
  get pooled(): number {
    return this.pool.length;
  }

  /**
   * Memory for one chunk of `size` bytes, to be filled and handed to chunk(): for a bulk chunk, one
   * the thread gave back, else new. The buffer starts at offset 0 of its own ArrayBuffer.
   */
  buffer(size: number): Buffer {
    if (size > POOLED_BYTES || size < POOLED_MIN) return Buffer.allocUnsafeSlow(size);
    return Buffer.from(this.pool.pop() ?? new ArrayBuffer(POOLED_BYTES), 0, size);
  }

  /**
   * Hands over one chunk's raw bytes (a buffer from buffer(), transferred, not copied) and how they
   * split into events.
   */
  chunk(
    rid: number,
    data: Buffer,
    index: IndexEntry[],
    options: { watched: boolean; final: boolean; t: number; raw: number },
  ): void {
    const buffer = data.buffer as ArrayBuffer;
    if (this.inFlight++ === 0) this.worker.ref();
    this.worker.postMessage({ op: 'chunk', rid, data: buffer, length: data.length, index, ...options }, [buffer]);
  }

  /** Forgets a recording whose last reply came. */
  release(rid: number): void {
    this.clients.delete(rid);
  }
}

let shared: RecorderWorker | undefined;

/** The shared worker, started on first use (and again if it ever died). */
export function recorderWorker(): RecorderWorker {
  if (!shared || shared.dead) shared = new RecorderWorker();
  return shared;
}
