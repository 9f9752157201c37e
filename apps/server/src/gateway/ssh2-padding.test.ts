import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';
import { describe, expect, it } from 'vitest';
import { paddingPooled, paddingStats, pooledRandomFill } from './ssh2-padding.js';

describe('ssh2 packet padding from a pool', () => {
  it('fills exactly the bytes asked for, with bytes never handed out twice', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const packet = Buffer.alloc(40, 0xee);
      expect(pooledRandomFill(packet, 21, 16)).toBe(packet);
      expect(packet.subarray(0, 21).every((b) => b === 0xee)).toBe(true);
      expect(packet.subarray(37).every((b) => b === 0xee)).toBe(true);
      seen.add(packet.subarray(21, 37).toString('hex'));
    }
    // 16 random bytes: 200 draws all differ unless bytes were handed out again.
    expect(seen.size).toBe(200);
    // Beyond the pool's size limit, Node's own call: still filled.
    const large = Buffer.alloc(4096);
    pooledRandomFill(large);
    expect(large.some((b) => b !== 0)).toBe(true);
  });

  it('is what a real ssh2 connection pads its packets with: a bulk copy refills the pool, not a call per packet', async () => {
    expect(paddingPooled).toBe(true);
    const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
    const total = 8 * 1024 * 1024;
    const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
      client.on('authentication', (ctx) => ctx.accept());
      client.on('session', (accept) => {
        accept().on('exec', (acceptExec) => {
          const channel = acceptExec();
          const block = Buffer.alloc(32 * 1024, 'gatehouse ');
          let sent = 0;
          const more = () => {
            while (sent < total) {
              sent += block.length;
              if (!channel.write(block)) return void channel.once('drain', more);
            }
            channel.exit(0);
            channel.end();
          };
          more();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const before = paddingStats();
    const client = new ssh2.Client();
    try {
      const received = await new Promise<number>((resolve, reject) => {
        client.on('error', reject);
        client.on('ready', () =>
          client.exec('copy', (error, stream) => {
            if (error) return reject(error);
            let bytes = 0;
            stream.on('data', (data: Buffer) => (bytes += data.length));
            stream.on('close', () => resolve(bytes));
          }),
        );
        client.connect({ host: '127.0.0.1', port, username: 'bench' });
      });
      expect(received).toBe(total);
    } finally {
      client.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // 256 or more data packets (and the window adjustments back), at least 4 bytes of padding each,
    // took it from the pool, which one call refills for thousands of packets.
    const after = paddingStats();
    expect(after.served - before.served).toBeGreaterThanOrEqual(256 * 4);
    expect(after.refills - before.refills).toBeLessThanOrEqual(1);
  });
});
