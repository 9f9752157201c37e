import { describe, expect, it } from 'vitest';
import { bufferSource, readTar, runVerify } from './verify-bundle.js';

/** A ustar header as the server writes one, with an optional raw size field. */
function header(name: string, size: number, sizeField?: Buffer): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'latin1');
  h.write('0000644\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  (sizeField ?? Buffer.from(`${size.toString(8).padStart(11, '0')}\0`, 'latin1')).copy(h, 124);
  h.write('00000000000\0', 136, 'latin1');
  h.write('        ', 148, 'latin1');
  h.write('0', 156, 'latin1');
  h.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}
const member = (name: string, data: Buffer) =>
  Buffer.concat([header(name, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
const END = Buffer.alloc(1024);

async function problemsOf(tar: Buffer): Promise<string[]> {
  const problems: string[] = [];
  await readTar(bufferSource(tar), (p) => problems.push(p));
  return problems;
}

describe('the verifier’s tar reader refuses hostile archives', () => {
  it('reads a well-formed archive with no problem', async () => {
    const tar = Buffer.concat([
      member('README.txt', Buffer.from('hi\n')),
      member('manifest.json', Buffer.from('{}')),
      END,
    ]);
    const problems: string[] = [];
    const members = await readTar(bufferSource(tar), (p) => problems.push(p));
    expect(problems).toEqual([]);
    expect([...members.values()]).toEqual([
      { name: 'README.txt', offset: 512, size: 3 },
      { name: 'manifest.json', offset: 1536, size: 2 },
    ]);
  });

  it('names path-like, unknown and repeated members, and never uses their names', async () => {
    const tar = Buffer.concat([
      member('../../etc/cron.d/evil', Buffer.from('x')),
      member('/etc/passwd', Buffer.from('x')),
      member('README.txt', Buffer.from('a')),
      member('README.txt', Buffer.from('b')),
      END,
    ]);
    expect(await problemsOf(tar)).toEqual([
      'the archive holds an unexpected member "../../etc/cron.d/evil"',
      'the archive holds an unexpected member "/etc/passwd"',
      '"README.txt" appears twice in the archive (the first one was checked)',
    ]);
  });

  it('refuses sizes past the end of the archive, in octal or base-256, without reading them', async () => {
    const octal = Buffer.concat([header('recording.cast', 0o77777777777), Buffer.alloc(512), END]);
    expect(await problemsOf(octal)).toEqual([
      `the archive is truncated: "recording.cast" claims ${0o77777777777} bytes but only 1536 follow its header`,
    ]);
    const big = Buffer.alloc(12);
    big[0] = 0x80;
    big.writeUIntBE(2 ** 47, 6, 6); // 128 TiB
    const base256 = Buffer.concat([header('recording.cast', 0, big), END]);
    expect(await problemsOf(base256)).toEqual([
      `the archive is truncated: "recording.cast" claims ${2 ** 47} bytes but only 1024 follow its header`,
    ]);
  });

  it('finds a truncated archive, a damaged header, bytes in the padding and data after the end', async () => {
    const good = Buffer.concat([member('README.txt', Buffer.from('hello\n')), END]);
    expect(await problemsOf(good.subarray(0, 700))).toEqual([
      'the archive is truncated inside the padding of "README.txt"',
    ]);
    expect(await problemsOf(good.subarray(0, 1024))).toEqual([
      'the archive is truncated: it ends at byte 1024 without its end-of-archive marker',
    ]);
    expect(await problemsOf(good.subarray(0, 1600))).toEqual([
      "the archive's end-of-archive marker at byte 1024 is incomplete or damaged",
    ]);
    const flipped = Buffer.from(good);
    flipped[10] = 0x41;
    expect(await problemsOf(flipped)).toEqual(['the tar header at byte 0 fails its checksum (the header was changed)']);
    const padded = Buffer.from(good);
    padded[512 + 100] = 1;
    expect(await problemsOf(padded)).toEqual(['the padding after "README.txt" (bytes 518–1023) is not zeros']);
    expect(await problemsOf(Buffer.concat([good, Buffer.from('more')]))).toEqual([
      'the archive holds data after its end-of-archive marker (from byte 2048)',
    ]);
  });

  it('answers usage mistakes with exit 2 and the usage', async () => {
    let err = '';
    const code = await runVerify(
      ['verify', 'x.tar', '--key', 'SHA256:short'],
      () => undefined,
      (t) => (err += t),
    );
    expect(code).toBe(2);
    expect(err).toContain('is not a key fingerprint');
    expect(err).toContain('Usage: gatehouse verify BUNDLE');
  });
});
