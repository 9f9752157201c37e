import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Created = {
  uuid: string;
  key: string;
  description: string;
  created: string;
  uses: number;
  uses_left: number;
  expires_at: string;
  message: string;
};

describe.each(DATABASES)('registration keys on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    await server.createUser('lister@example.test', 'lister-password', { permissions: ['list-api-key'] });
  });
  afterAll(async () => server.stop());

  it('answers the secret once, stores only its hash, and lists the key without it', async () => {
    const res = await server.call<Created>('POST', '/api/apikey', {
      token: admin,
      body: { description: 'Linux fleet', uses: 3, expires_in_hours: 48 },
    });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^ghk_[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({ uses: 3, uses_left: 3 });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created)).toBeCloseTo(48 * 3_600_000, -4);
    const rows = await server.services.database.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    expect(rows[0]?.key_hash).toBe(createHash('sha256').update(res.body.key).digest('hex'));
    const list = await server.call<{ keys: Record<string, unknown>[] }>('GET', '/api/apikey', { token: admin });
    expect(list.body.keys).toHaveLength(1);
    expect(list.body.keys[0]).toMatchObject({
      uuid: res.body.uuid,
      description: 'Linux fleet',
      created_by: 'admin@example.test',
      uses: 3,
      uses_left: 3,
    });
    expect(list.body.keys[0]).not.toHaveProperty('permissions');
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
  });

  it('is gated on the admin role, whatever permissions one holds', async () => {
    const lister = await server.login('lister@example.test', 'lister-password');
    expect((await server.call('GET', '/api/apikey', { token: lister })).status).toBe(403);
    expect((await server.call('POST', '/api/apikey', { token: lister, body: { description: 'x' } })).status).toBe(403);
  });

  it('deletes a key and answers 404 for unknown or malformed ids', async () => {
    const created = await server.call<Created>('POST', '/api/apikey', {
      token: admin,
      body: { description: 'Windows fleet' },
    });
    expect((await server.call('DELETE', `/api/apikey/${created.body.uuid}`, { token: admin })).status).toBe(200);
    expect((await server.call('DELETE', `/api/apikey/${created.body.uuid}`, { token: admin })).status).toBe(404);
    expect((await server.call('DELETE', '/api/apikey/not-a-uuid', { token: admin })).status).toBe(400);
  });
});
