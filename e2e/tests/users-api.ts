import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect } from '@playwright/test';
import { ACCOUNTS } from '../fixtures.js';

/** The e2e server's data folder: start-server.sh keeps one per port. */
export const DATA_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  `.data-${process.env.E2E_PORT ?? '18480'}`,
);

/** A fresh, unique email, so tests never touch the accounts other tests sign in with. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@e2e.gatehouse.test`;
}

/** Signs in through the API and answers the token. */
export async function apiToken(
  request: APIRequestContext,
  account: { email: string; password: string } = ACCOUNTS.admin,
): Promise<string> {
  const res = await request.post('/api/login?include_auth_token', { data: account });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { response: { user: { authentication_token: string } } };
  return body.response.user.authentication_token;
}

/** Creates a user as the first administrator; answers its credentials. */
export async function createUser(
  request: APIRequestContext,
  prefix: string,
  name?: string,
): Promise<{ email: string; password: string }> {
  const account = { email: uniqueEmail(prefix), password: `pw-${randomBytes(6).toString('hex')}` };
  const res = await request.post('/api/user', {
    headers: { 'authentication-token': await apiToken(request) },
    data: { ...account, ...(name ? { name } : {}) },
  });
  expect(res.status()).toBe(201);
  return account;
}

/** Changes general settings as the first administrator. */
export async function saveSettings(request: APIRequestContext, settings: Record<string, unknown>): Promise<void> {
  const res = await request.post('/api/settings', {
    headers: { 'authentication-token': await apiToken(request) },
    data: settings,
  });
  expect(res.status()).toBe(200);
}

/**
 * The newest reset link mailed to this address: with no SMTP configured the server keeps each
 * message in its outbox, which administrators read through GET /api/mail/outbox. Mail is sent in
 * the background, so this waits for it.
 */
export function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  return mailedLink(request, email, /#\/reset-password\?token=[\w-]+/);
}

/** The newest sign-up verification link mailed to this address (from the outbox, like resetLinkFor). */
export function verifyLinkFor(request: APIRequestContext, email: string): Promise<string> {
  return mailedLink(request, email, /#\/verify-email\?token=[\w-]+/);
}

async function mailedLink(request: APIRequestContext, email: string, pattern: RegExp): Promise<string> {
  const headers = { 'authentication-token': await apiToken(request) };
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const list = await request.get('/api/mail/outbox?limit=50', { headers });
        const { messages } = (await list.json()) as { messages: { id: string; to: string }[] };
        for (const message of messages) {
          if (message.to !== email) continue;
          const one = await request.get(`/api/mail/outbox/${message.id}`, { headers });
          link = pattern.exec(((await one.json()) as { text: string }).text)?.[0];
          if (link) return true;
        }
        return false;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return link!;
}

/** Calls the API as the first administrator and expects success. */
export async function asAdmin(
  request: APIRequestContext,
  method: 'POST' | 'PUT',
  url: string,
  data: Record<string, unknown>,
): Promise<void> {
  const res = await request.fetch(url, {
    method,
    headers: { 'authentication-token': await apiToken(request) },
    data,
  });
  expect(res.ok()).toBe(true);
}
