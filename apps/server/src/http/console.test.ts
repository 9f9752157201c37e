import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../test/harness.js';

describe('the console files', () => {
  let server: TestServer;
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Gatehouse</title>');
    fs.writeFileSync(path.join(web, 'assets', 'first.js'), 'console.log(1)');
    server = await startTestServer('pglite', { webDir: web });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(web, { recursive: true, force: true });
  });

  const get = (url: string, accept = 'text/html') =>
    fetch(`${server.url}${url}`, { headers: { accept }, redirect: 'manual' });

  it('serves the page, hashed assets for a year, and files added after the start (a rebuild)', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const asset = await get('/assets/first.js', '*/*');
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    fs.writeFileSync(path.join(web, 'assets', 'second.js'), 'console.log(2)');
    const later = await get('/assets/second.js', '*/*');
    expect(later.status).toBe(200);
    expect(await later.text()).toBe('console.log(2)');
  });

  it('sends the brotli or gzip copy the build wrote to a browser that accepts it, with the same caching', async () => {
    const code = `export const big = ${JSON.stringify('x'.repeat(4000))};`;
    fs.writeFileSync(path.join(web, 'assets', 'big.js'), code);
    fs.writeFileSync(path.join(web, 'assets', 'big.js.br'), zlib.brotliCompressSync(code));
    fs.writeFileSync(path.join(web, 'assets', 'big.js.gz'), zlib.gzipSync(code));
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        // node:http, which decodes nothing, so the bytes on the wire are what is compared.
        void import('node:http').then(({ get: httpGet }) =>
          httpGet(`${server.url}/assets/big.js`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (part: Buffer) => parts.push(part));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          }).on('error', reject),
        );
      });
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toMatch(/immutable/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(code);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(code);
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(code);
  });

  it('sends unknown pages to the console’s 404 and unknown API paths a JSON 404', async () => {
    const page = await get('/no/such/page');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/#/error-pages/error-404');
    const api = await get('/api/no-such-call', 'application/json');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { message: string }).message).toMatch(/There is no GET \/api\/no-such-call/);
    expect((await get('/assets/../../etc/passwd', '*/*')).status).toBe(404);
  });

  it('answers 503, not a redirect loop, while the page itself is missing', async () => {
    fs.renameSync(path.join(web, 'index.html'), path.join(web, 'index.moved'));
    try {
      const page = await get('/');
      expect(page.status).toBe(503);
      expect(await page.text()).toMatch(/npm run build/);
    } finally {
      fs.renameSync(path.join(web, 'index.moved'), path.join(web, 'index.html'));
    }
    expect((await get('/')).status).toBe(200);
  });
});
