import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_HANDLES, MAX_PACKET, MAX_PENDING, SftpObserver } from './sftp-observer.js';
import { REORDER_LIMIT, type TransferEvent } from './transfer-event.js';

// SFTP v3 packets as a client or host would send them.
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const str = (s: string | Buffer) => {
  const b = typeof s === 'string' ? Buffer.from(s) : s;
  return Buffer.concat([u32(b.length), b]);
};
const packet = (type: number, ...fields: Buffer[]) => {
  const body = Buffer.concat([Buffer.from([type]), ...fields]);
  return Buffer.concat([u32(body.length), body]);
};
const init = packet(1, u32(3));
const version = packet(2, u32(3));
const open = (id: number, path: string, flags: number) => packet(3, u32(id), str(path), u32(flags), u32(0));
const handle = (id: number, h: string) => packet(102, u32(id), str(h));
const write = (id: number, h: string, offset: number, data: Buffer) =>
  packet(6, u32(id), str(h), u64(offset), str(data));
const read = (id: number, h: string, offset: number, len: number) => packet(5, u32(id), str(h), u64(offset), u32(len));
const data = (id: number, bytes: Buffer) => packet(103, u32(id), str(bytes));
const close = (id: number, h: string) => packet(4, u32(id), str(h));
const status = (id: number, code = 0, message = '') => packet(101, u32(id), u32(code), str(message), str(''));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function observer() {
  const events: TransferEvent[] = [];
  const o = new SftpObserver((e) => events.push(e));
  o.fromClient(init);
  o.fromHost(version);
  return { o, events };
}

/** An upload of `file` in `size`-byte writes sent in `order`, all answered, then closed. */
function upload(file: Buffer, size: number, order: (offsets: number[]) => number[]) {
  const { o, events } = observer();
  o.fromClient(open(1, '/srv/up.bin', 0x1a));
  o.fromHost(handle(1, 'h1'));
  const offsets = Array.from({ length: Math.ceil(file.length / size) }, (_, i) => i * size);
  let id = 10;
  for (const offset of order(offsets)) o.fromClient(write(id++, 'h1', offset, file.subarray(offset, offset + size)));
  for (let i = 10; i < id; i += 1) o.fromHost(status(i));
  o.fromClient(close(2, 'h1'));
  o.fromHost(status(2));
  return events;
}

describe('the sftp observer never lets a peer make it allocate without bound, throw, or lie', () => {
  it('stops at a packet announcing a huge length, records one unparsable event, and reads nothing more', () => {
    const { o, events } = observer();
    const huge = Buffer.concat([u32(0xffffffff), Buffer.from([6]), randomBytes(100)]);
    expect(() => o.fromClient(huge)).not.toThrow();
    o.fromClient(open(1, '/etc/shadow', 1));
    o.fromHost(handle(1, 'h'));
    o.end();
    expect(events).toEqual([
      expect.objectContaining({ op: 'unparsable', outcome: `an sftp packet of ${0xffffffff} bytes` }),
    ]);
    expect(MAX_PACKET).toBeLessThan(0xffffffff);
  });

  it('refuses a request whose fields claim more than its packet holds', () => {
    const { o, events } = observer();
    o.fromClient(open(1, '/a', 2));
    o.fromHost(handle(1, 'h'));
    // A write whose data string claims 1 MiB inside a 40-byte packet.
    const lying = packet(6, u32(2), str('h'), u64(0), u32(1024 * 1024), randomBytes(20));
    o.fromClient(lying);
    expect(events.map((e) => e.op)).toEqual(['write', 'unparsable']);
    expect(events[0]!.outcome).toMatch(/not closed/);
    expect(events[1]!.outcome).toBe('an sftp write longer than its packet');
  });

  it('stops at a string length beyond its packet in an open, and at an oversized path request', () => {
    const a = observer();
    a.o.fromClient(packet(3, u32(1), u32(5000), Buffer.from('short')));
    expect(a.events.map((e) => [e.op, e.outcome])).toEqual([
      ['unparsable', 'a string runs past the end of its packet'],
    ]);
    const b = observer();
    b.o.fromClient(open(1, 'x'.repeat(70 * 1024), 1));
    expect(b.events.map((e) => e.op)).toEqual(['unparsable']);
  });

  it('stops at unknown packet types from either side, and at another protocol version', () => {
    const a = observer();
    a.o.fromClient(packet(99, u32(1)));
    expect(a.events.map((e) => e.outcome)).toEqual(['an sftp packet of unknown type 99 from the client']);
    const b = observer();
    b.o.fromHost(packet(6, u32(1)));
    expect(b.events.map((e) => e.outcome)).toEqual(['an sftp packet of unknown type 6 from the host']);
    const events: TransferEvent[] = [];
    const c = new SftpObserver((e) => events.push(e));
    c.fromHost(packet(2, u32(6)));
    expect(events.map((e) => e.outcome)).toEqual(['sftp version 6 (only version 3 is observed)']);
  });

  it('caps requests left unanswered and files left open', () => {
    const a = observer();
    for (let i = 0; i <= MAX_PENDING; i += 1) a.o.fromClient(packet(13, u32(i), str(`/tmp/${i}`)));
    expect(a.events.map((e) => e.op)).toEqual([...Array<string>(MAX_PENDING).fill('remove'), 'unparsable']);
    expect(a.events.at(-1)!.outcome).toBe(`more than ${MAX_PENDING} sftp requests unanswered`);
    const b = observer();
    for (let i = 0; i <= MAX_HANDLES; i += 1) {
      b.o.fromClient(open(i, `/f${i}`, 1));
      b.o.fromHost(handle(i, `h${i}`));
    }
    expect(b.events.at(-1)).toMatchObject({ op: 'unparsable', outcome: `more than ${MAX_HANDLES} files open at once` });
  });

  it('survives truncated packets: what was open when the channel closed is reported as such', () => {
    const { o, events } = observer();
    o.fromClient(open(1, '/half.bin', 0x1a));
    o.fromHost(handle(1, 'h'));
    const bytes = randomBytes(1000);
    const w = write(2, 'h', 0, bytes);
    o.fromClient(w.subarray(0, 500));
    o.end();
    expect(events).toEqual([
      expect.objectContaining({
        op: 'write',
        path: '/half.bin',
        // 26 bytes of header: length, type, id, handle, offset, data length.
        bytes: 500 - 26,
        sha256: sha(bytes.subarray(0, 474)),
        outcome: 'not closed (the channel closed first)',
      }),
    ]);
  });

  it('never throws on random bytes in random pieces, and reports at most one unparsable event', () => {
    for (let round = 0; round < 300; round += 1) {
      const events: TransferEvent[] = [];
      const o = new SftpObserver((e) => events.push(e));
      // Plausible starts (a real init, an open) followed by garbage, split anywhere.
      const stream = Buffer.concat([init, open(1, '/x', 3), randomBytes(1 + Math.floor(Math.random() * 4000))]);
      const back = Buffer.concat([version, handle(1, 'h'), randomBytes(Math.floor(Math.random() * 4000))]);
      for (let at = 0; at < Math.max(stream.length, back.length);) {
        const n = 1 + Math.floor(Math.random() * 700);
        expect(() => o.fromClient(stream.subarray(at, at + n))).not.toThrow();
        expect(() => o.fromHost(back.subarray(at, at + n))).not.toThrow();
        at += n;
      }
      o.end();
      expect(events.filter((e) => e.op === 'unparsable').length).toBeLessThanOrEqual(1);
    }
  });

  it('hashes writes pipelined out of order within the reorder window, whatever the chunking', () => {
    const file = randomBytes(300_000);
    const swapped = upload(file, 32_768, (o) => [o[1]!, o[0]!, o[3]!, o[2]!, ...o.slice(4)]);
    expect(swapped).toEqual([
      {
        protocol: 'sftp',
        op: 'write',
        path: '/srv/up.bin',
        direction: 'upload',
        bytes: file.length,
        sha256: sha(file),
        outcome: 'ok',
      },
    ]);
    // The same, delivered one byte at a time.
    const events: TransferEvent[] = [];
    const o = new SftpObserver((e) => events.push(e));
    const client = Buffer.concat([
      init,
      open(1, '/p', 2),
      write(2, 'h', 5, file.subarray(5, 9)),
      write(3, 'h', 0, file.subarray(0, 5)),
      close(4, 'h'),
    ]);
    const host = Buffer.concat([version, handle(1, 'h'), status(2), status(3), status(4)]);
    let h = 0;
    for (let i = 0; i < client.length; i += 1) {
      o.fromClient(client.subarray(i, i + 1));
      // The host answers what has been asked so far.
      if (i === init.length + open(1, '/p', 2).length - 1)
        for (; h < version.length + handle(1, 'h').length; h += 1) o.fromHost(host.subarray(h, h + 1));
    }
    for (; h < host.length; h += 1) o.fromHost(host.subarray(h, h + 1));
    expect(events).toEqual([expect.objectContaining({ bytes: 9, sha256: sha(file.subarray(0, 9)) })]);
  });

  it('gives up the digest, never the count, past the reorder window, with a gap, or with ranges sent twice', () => {
    const big = randomBytes(REORDER_LIMIT + 512 * 1024);
    const reversed = upload(big, 256 * 1024, (o) => [...o].reverse());
    expect(reversed[0]).toMatchObject({ bytes: big.length, sha256: null });
    expect(reversed[0]!.note).toMatch(/reorder window/);

    const file = randomBytes(100_000);
    const gap = upload(file, 10_000, (o) => o.filter((x) => x !== 30_000));
    expect(gap[0]).toMatchObject({ bytes: 90_000, sha256: null });
    expect(gap[0]!.note).toMatch(/gap at offset 30000/);

    const twice = upload(file, 10_000, (o) => [...o, 20_000]);
    expect(twice[0]).toMatchObject({ bytes: 110_000, sha256: null, note: 'some byte ranges passed more than once' });

    const resumed = upload(file, 10_000, (o) => o.filter((x) => x >= 50_000));
    expect(resumed[0]).toMatchObject({ sha256: null });
    expect(resumed[0]!.note).toMatch(/gap at offset 0/);
  });

  it('hashes downloads by the offsets the reads asked for, short reads asked again included', () => {
    const file = randomBytes(70_000);
    const { o, events } = observer();
    o.fromClient(open(1, 'relative/down.bin', 1));
    o.fromHost(handle(1, 'h'));
    o.fromClient(read(2, 'h', 0, 32_768));
    o.fromClient(read(3, 'h', 32_768, 32_768));
    o.fromClient(read(4, 'h', 65_536, 32_768));
    o.fromHost(data(2, file.subarray(0, 20_000))); // short
    o.fromHost(data(3, file.subarray(32_768, 65_536)));
    o.fromHost(data(4, file.subarray(65_536)));
    o.fromClient(read(5, 'h', 20_000, 12_768)); // the rest of the short one
    o.fromHost(data(5, file.subarray(20_000, 32_768)));
    o.fromClient(read(6, 'h', 70_000, 32_768));
    o.fromHost(status(6, 1, 'End of file'));
    o.fromClient(close(7, 'h'));
    o.fromHost(status(7));
    expect(events).toEqual([
      {
        protocol: 'sftp',
        op: 'read',
        path: 'relative/down.bin',
        direction: 'download',
        bytes: file.length,
        sha256: sha(file),
        outcome: 'ok',
      },
    ]);
  });

  it('reports operations with the host’s answer, and cleans control characters out of paths', () => {
    const { o, events } = observer();
    o.fromClient(packet(18, u32(1), str('/a'), str('/b')));
    o.fromClient(packet(200, u32(2), str('posix-rename@openssh.com'), str('/c'), str('/d')));
    o.fromClient(packet(20, u32(3), str('/target'), str('/link')));
    o.fromClient(packet(14, u32(4), str('/new\x1b[2Jdir'), u32(0)));
    o.fromClient(open(5, '/etc/shadow', 1));
    o.fromHost(status(1));
    o.fromHost(status(2, 4, 'Failure'));
    o.fromHost(status(3));
    o.fromHost(status(4, 3, ''));
    o.fromHost(status(5, 3, 'Permission denied'));
    expect(events.map((e) => [e.op, e.path, e.target, e.outcome])).toEqual([
      ['rename', '/a', '/b', 'ok'],
      ['rename', '/c', '/d', 'Failure'],
      ['symlink', '/link', '/target', 'ok'],
      ['mkdir', '/new\ufffd[2Jdir', undefined, 'permission denied'],
      ['read', '/etc/shadow', undefined, 'Permission denied'],
    ]);
  });
});
