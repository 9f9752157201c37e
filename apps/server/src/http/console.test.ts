import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
