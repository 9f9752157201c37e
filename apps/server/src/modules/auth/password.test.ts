import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type ErrorAnswer = { message: string; errors?: string[] };

describe.each(DATABASES)('changing the password on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.createUser('erin@example.test', 'erin-password-1');
  });
  afterAll(async () => server.stop());

  const change = (token: string, body: unknown) =>
    server.call<ErrorAnswer>('POST', '/api/user/password', { token, body });

  it('needs a token', async () => {
    expect((await server.call('POST', '/api/user/password', { body: {} })).status).toBe(401);
  });

  it('lists each broken rule of spec §5, one by one', async () => {
    const token = await server.login('erin@example.test', 'erin-password-1');
    const res = await change(token, { password: '', new_password: 'short', new_password_confirm: 'other' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      'Your password is required in order to change this',
      'Passwords need to be at least 8 characters long',
      'Passwords do not match',
    ]);
  });

  it('refuses a wrong current password', async () => {
    const token = await server.login('erin@example.test', 'erin-password-1');
    const res = await change(token, {
      password: 'not-my-password',
      new_password: 'brand-new-pass',
      new_password_confirm: 'brand-new-pass',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['Your current password is not correct']);
  });

  it('refuses unknown fields and wrong types', async () => {
    const token = await server.login('erin@example.test', 'erin-password-1');
    const extra = await change(token, {
      password: 'erin-password-1',
      new_password: 'brand-new-pass',
      new_password_confirm: 'brand-new-pass',
      admin: true,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/admin/);
    const wrongType = await change(token, {
      password: 123,
      new_password: 'brand-new-pass',
      new_password_confirm: 'brand-new-pass',
    });
    expect(wrongType.status).toBe(400);
  });

  it('changes it, keeps the current token, revokes the others, and the new password signs in', async () => {
    const current = await server.login('erin@example.test', 'erin-password-1');
    const other = await server.login('erin@example.test', 'erin-password-1');
    const res = await change(current, {
      password: 'erin-password-1',
      new_password: 'erin-password-2',
      new_password_confirm: 'erin-password-2',
    });
    expect(res.status).toBe(200);
    expect((await server.call('GET', '/api/user/me', { token: current })).status).toBe(200);
    expect((await server.call('GET', '/api/user/me', { token: other })).status).toBe(401);
    expect(
      (await server.call('POST', '/api/login', { body: { email: 'erin@example.test', password: 'erin-password-1' } }))
        .status,
    ).toBe(401);
    await server.login('erin@example.test', 'erin-password-2');
  });
});
