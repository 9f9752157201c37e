import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseScpCommand } from './scp-command.js';
import { ScpObserver } from './scp-observer.js';
import type { TransferEvent } from './transfer-event.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const OK = Buffer.from([0]);

/** An upload observer: the client sends, the host acknowledges. */
function upload(command = 'scp -t /srv/in.bin') {
  const events: TransferEvent[] = [];
  const o = new ScpObserver(parseScpCommand(command)!, (e) => events.push(e));
  o.fromHost(OK); // the receiving scp is ready
  return { o, events };
}

describe('the scp observer never lets a peer make it allocate without bound, throw, or lie', () => {
  it('records an upload with its bytes and SHA-256, delivered in any pieces', () => {
    const file = randomBytes(100_000);
    for (const piece of [1, 7, 4096, 200_000]) {
      const { o, events } = upload();
      const stream = Buffer.concat([Buffer.from(`C0644 ${file.length} in.bin\n`), file, OK]);
      o.fromClient(stream.subarray(0, stream.indexOf(0x0a) + 1));
      o.fromHost(OK);
      for (let at = stream.indexOf(0x0a) + 1; at < stream.length; at += piece)
        o.fromClient(stream.subarray(at, at + piece));
      o.fromHost(OK);
      o.end();
      expect(events).toEqual([
        {
          protocol: 'scp',
          op: 'upload',
          path: '/srv/in.bin',
          direction: 'upload',
          bytes: file.length,
          sha256: sha(file),
          outcome: 'ok',
        },
      ]);
    }
  });

  it('stops at a file size beyond 2^53 or malformed control lines, with one unparsable event', () => {
    for (const line of [
      'C0644 99999999999999999 x\n',
      'C0644 -5 x\n',
      'Cxyz 5 x\n',
      'Q what\n',
      'E\n',
      'D0755 0 \n',
      'T1 2 3\n',
    ]) {
      const { o, events } = upload();
      expect(() => o.fromClient(Buffer.from(line))).not.toThrow();
      o.fromClient(randomBytes(100));
      o.end();
      expect(
        events.map((e) => e.op),
        line,
      ).toEqual(['unparsable']);
    }
  });

  it('stops at a control line that never ends, holding at most 8 KiB of it', () => {
    const { o, events } = upload();
    o.fromClient(Buffer.from('C0644 5 '));
    for (let i = 0; i < 100; i += 1) o.fromClient(Buffer.alloc(1024, 0x61));
    expect(events.map((e) => [e.op, e.outcome])).toEqual([['unparsable', 'a line longer than 8192 bytes']]);
  });

  it('stops at an acknowledgement nothing asked for, or of an unknown kind', () => {
    const a = upload();
    a.o.fromHost(OK);
    expect(a.events.map((e) => e.outcome)).toEqual(['an scp acknowledgement nothing asked for']);
    const b = upload();
    b.o.fromHost(Buffer.from('hello'));
    expect(b.events.map((e) => e.outcome)).toEqual(['an scp acknowledgement of an unknown kind']);
  });

  it('reports a file refused by the receiver, and one cut off part way, without a digest', () => {
    const { o, events } = upload('scp -d -t /srv');
    o.fromClient(Buffer.from('C0600 10 secret.key\n'));
    o.fromHost(Buffer.from('\x01scp: /srv/secret.key: Permission denied\n'));
    o.fromClient(Buffer.from('C0644 1000 big.bin\n'));
    o.fromHost(OK);
    o.fromClient(randomBytes(400));
    o.end();
    expect(events.map((e) => [e.path, e.bytes, e.sha256, e.outcome])).toEqual([
      ['/srv/secret.key', 0, null, 'scp: /srv/secret.key: Permission denied'],
      ['/srv/big.bin', 400, null, 'interrupted: the channel closed after 400 of 1000 bytes'],
    ]);
  });

  it('follows directories (-r) and a download’s sources, and records the sender’s own errors', () => {
    const events: TransferEvent[] = [];
    const o = new ScpObserver(parseScpCommand("scp -r -f '/home/u/my dir' /etc/missing")!, (e) => events.push(e));
    const file = Buffer.from('hello\n');
    o.fromClient(OK);
    for (const line of [
      'T1700000000 0 1700000000 0\n',
      'D0755 0 my dir\n',
      'D0755 0 sub\n',
      `C0644 ${file.length} a.txt\n`,
    ]) {
      o.fromHost(Buffer.from(line));
      o.fromClient(OK);
    }
    o.fromHost(Buffer.concat([file, OK]));
    o.fromClient(OK);
    o.fromHost(Buffer.from('E\n'));
    o.fromClient(OK);
    o.fromHost(Buffer.from('E\n'));
    o.fromClient(OK);
    o.fromHost(Buffer.from('\x01scp: /etc/missing: No such file or directory\n'));
    o.end();
    expect(events.map((e) => [e.op, e.path, e.bytes, e.sha256, e.outcome])).toEqual([
      ['download', '/home/u/my dir/sub/a.txt', 6, sha(file), 'ok'],
      ['download', '/home/u/my dir /etc/missing', 0, null, 'scp: /etc/missing: No such file or directory'],
    ]);
  });

  it('never throws on random bytes in random pieces, and reports at most one unparsable event', () => {
    for (let round = 0; round < 300; round += 1) {
      const events: TransferEvent[] = [];
      const o = new ScpObserver(parseScpCommand('scp -t /x')!, (e) => events.push(e));
      const client = Buffer.concat([Buffer.from('C0644 20 f\n'), randomBytes(Math.floor(Math.random() * 3000))]);
      const host = Buffer.concat([OK, OK, randomBytes(Math.floor(Math.random() * 300))]);
      for (let at = 0; at < client.length || at < host.length;) {
        const n = 1 + Math.floor(Math.random() * 500);
        expect(() => o.fromHost(host.subarray(at, at + n))).not.toThrow();
        expect(() => o.fromClient(client.subarray(at, at + n))).not.toThrow();
        at += n;
      }
      o.end();
      expect(events.filter((e) => e.op === 'unparsable').length).toBeLessThanOrEqual(1);
    }
  });

  it('takes only the remote end of legacy scp for scp, not commands that merely mention it', () => {
    expect(parseScpCommand('scp -t /tmp/x')).toEqual({ direction: 'upload', paths: ['/tmp/x'], intoDirectory: false });
    expect(parseScpCommand('scp -v -r -p -d -t -- -odd')).toEqual({
      direction: 'upload',
      paths: ['-odd'],
      intoDirectory: true,
    });
    expect(parseScpCommand('/usr/bin/scp -f "a b" c')).toEqual({
      direction: 'download',
      paths: ['a b', 'c'],
      intoDirectory: false,
    });
    for (const other of [
      'scp -t',
      'scp -t -f x',
      'scp x y',
      'scp -t a b',
      'echo scp -t x',
      'scp -t x; rm -rf /',
      'scp -t $(id)',
      "scp -t 'x",
    ])
      expect(parseScpCommand(other), other).toBeUndefined();
  });
});
