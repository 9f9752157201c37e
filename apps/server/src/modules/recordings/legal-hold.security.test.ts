import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { hashToken } from '../auth/tokens.js';

interface HoldAnswer {
  message: string;
  legal_hold: { held: boolean; by: string | null; at: string | null; reason: string | null };
}

// Legal holds through the real server: only holders of manage-legal-hold who may watch a recording
// place or lift its hold, nobody grants manage-legal-hold without holding it, and every attempt is
// in the audit trail with its reason.
describe.each(DATABASES)('legal hold is placed and lifted only by those allowed, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  const host: Record<string, string> = {};
  const rec: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const hold = (who: string, method: 'PUT' | 'DELETE', id: string, body: unknown = { reason: 'Case 7: preserve' }) =>
    server.call<HoldAnswer>(method, `/api/recording/${id}/hold`, {
      token: who === 'admin' ? admin : tokens[who],
      body,
    });
  const row = async (id: string) => {
    const found = await server.services.repositories.recordings.find(id);
    return found && { held: found.legalHold, by: found.legalHoldBy, reason: found.legalHoldReason };
  };
  const audit = (action: string) =>
    server.services.database.query<{ actor: string; target: string; outcome: string; status: number; detail: unknown }>(
      'SELECT actor, target, outcome, status, detail FROM audit_log WHERE action = $1 ORDER BY id',
      [action],
    );
  const ok = async (method: string, url: string, body?: unknown) => {
    const res = await server.call(method, url, { token: admin, body });
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const dir = path.join(server.dataDir, 'recordings', 'hold');
    fs.mkdirSync(dir, { recursive: true });
    for (const hostname of ['web-01', 'db-01']) {
      host[hostname] = await server.services.repositories.agents.create({
        hostname,
        os: 1,
        version: '2.0.0',
        credentialHash: hashToken(randomBytes(16).toString('hex')),
        config: null,
        registeredWith: randomUUID(),
      });
      const file = path.join(dir, `${hostname}.cast`);
      fs.writeFileSync(file, `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n[0.5,"o","hi"]\n`);
      rec[hostname] = (
        await server.services.repositories.recordings.create({
          type: 'ssh',
          agentId: host[hostname],
          hostname,
          userEmail: 'someone@example.test',
          startedOn: new Date(Date.now() - 3_600_000),
          endedOn: new Date(Date.now() - 3_000_000),
          storagePath: file,
        })
      ).id;
    }
    for (const [name, permissions] of [
      ['lister', ['list-recording']],
      ['keeper', ['list-recording', 'manage-legal-hold']],
      ['far-keeper', ['list-recording', 'manage-legal-hold']],
      ['blind-keeper', ['manage-legal-hold']],
      ['roler', ['list-recording', 'create-role', 'modify-role', 'modify-user-role', 'list-user-role']],
      ['keeping-roler', ['list-recording', 'manage-legal-hold', 'create-role', 'modify-role', 'list-user-role']],
    ] as const) {
      await server.createUser(`${name}@example.test`, `${name}-password`, { permissions: [...permissions] });
      tokens[name] = await server.login(`${name}@example.test`, `${name}-password`);
    }
    // web-team reaches web-01; far-keeper is in no group and reaches nothing.
    await ok('POST', '/api/group', { name: 'web-team' });
    await ok('PUT', '/api/group/web-team/agents', { agents: [host['web-01']] });
    await ok('PUT', '/api/group/web-team/users', {
      users: ['lister', 'keeper', 'blind-keeper', 'roler', 'keeping-roler'].map((n) => `${n}@example.test`),
    });
  });
  afterAll(async () => server.stop());

  it('a user with list-recording but not manage-legal-hold cannot place or lift a hold (403), and nothing changes', async () => {
    const id = rec['web-01']!;
    // lister sees the recording…
    expect((await server.call('GET', `/api/recording/${id}/data`, { token: tokens.lister })).status).toBe(200);
    // …but cannot place its hold.
    const place = await hold('lister', 'PUT', id);
    expect(place.status).toBe(403);
    expect(place.body.message).toMatch(/manage-legal-hold/);
    expect(await row(id)).toEqual({ held: false, by: null, reason: null });
    // Nor lift one an administrator placed.
    expect((await hold('admin', 'PUT', id, { reason: 'Audit 12' })).status).toBe(200);
    const lift = await hold('lister', 'DELETE', id, { reason: 'let it go' });
    expect(lift.status).toBe(403);
    expect(await row(id)).toEqual({ held: true, by: 'admin@example.test', reason: 'Audit 12' });
    const denied = (await audit('recording.hold.lifted')).filter((e) => e.actor === 'lister@example.test');
    expect(denied).toEqual([expect.objectContaining({ outcome: 'denied', status: 403, target: id })]);
    expect((await hold('admin', 'DELETE', id, { reason: 'Audit 12 done' })).status).toBe(200);
  });

  it('a holder of manage-legal-hold who may not see the recording gets 404, and nothing changes', async () => {
    const web = rec['web-01']!;
    const db = rec['db-01']!;
    // Out of reach (no group gives web-01), or without list-recording, or another host: unknown.
    for (const [who, id] of [
      ['far-keeper', web],
      ['blind-keeper', web],
      ['keeper', db],
      ['keeper', randomUUID()],
    ] as const) {
      const place = await hold(who, 'PUT', id);
      expect(place.status, `${who} on ${id}`).toBe(404);
      expect(place.body.message).toMatch(/no session with that id/i);
    }
    expect(await row(web)).toEqual({ held: false, by: null, reason: null });
    expect(await row(db)).toEqual({ held: false, by: null, reason: null });
    // A hold placed by an administrator stays whatever they try.
    expect((await hold('admin', 'PUT', db, { reason: 'Board request' })).status).toBe(200);
    expect((await hold('keeper', 'DELETE', db)).status).toBe(404);
    expect((await hold('far-keeper', 'DELETE', db)).status).toBe(404);
    expect(await row(db)).toEqual({ held: true, by: 'admin@example.test', reason: 'Board request' });
    // keeper does not learn of it in the list either.
    const list = await server.call<{ recordings: { id: string }[] }>('GET', '/api/recording?hold=true', {
      token: tokens.keeper,
    });
    expect(list.body.recordings.map((r) => r.id)).not.toContain(db);
    // The same keeper places and lifts on what they see (the positive control).
    expect((await hold('keeper', 'PUT', web)).status).toBe(200);
    expect((await hold('keeper', 'DELETE', web, { reason: 'Case 7 closed' })).status).toBe(200);
    expect((await hold('admin', 'DELETE', db, { reason: 'Board done' })).status).toBe(200);
  });

  it('a role holder cannot grant manage-legal-hold to themselves or others unless they hold it', async () => {
    const roler = (method: string, url: string, body: unknown) =>
      server.call<{ message: string }>(method, url, { token: tokens.roler, body });
    // Creating a role with it, adding it to a role (their own included), giving a role that has it.
    const created = await roler('POST', '/api/role', { name: 'hold-makers', permissions: ['manage-legal-hold'] });
    expect(created.status).toBe(403);
    expect(created.body.message).toMatch(/manage-legal-hold/);
    const roles = await server.services.repositories.users.rolesOf(
      (await server.services.repositories.users.findByEmail('roler@example.test'))!.id,
    );
    const own = roles.find((r) => r.name.startsWith('test-role-'))!.name;
    expect((await roler('PUT', `/api/role/${own}/permissions`, { permissions: ['manage-legal-hold'] })).status).toBe(
      403,
    );
    await ok('POST', '/api/role', { name: 'keepers', permissions: ['manage-legal-hold'] });
    for (const user of ['roler@example.test', 'lister@example.test'])
      expect((await roler('PUT', '/api/role/keepers/users', { users: [user] })).status).toBe(403);
    // Nothing changed: roler and lister still cannot place a hold.
    for (const who of ['roler', 'lister']) {
      const fresh = await server.login(`${who}@example.test`, `${who}-password`);
      const me = await server.call<{ user: { effectivePermissions: string[] } }>('GET', '/api/user/me', {
        token: fresh,
      });
      expect(me.body.user.effectivePermissions).not.toContain('manage-legal-hold');
      const place = await server.call('PUT', `/api/recording/${rec['web-01']}/hold`, {
        token: fresh,
        body: { reason: 'x' },
      });
      expect(place.status).toBe(403);
    }
    // One who holds it may grant it (the guard is not simply closed).
    const granted = await server.call('POST', '/api/role', {
      token: tokens['keeping-roler'],
      body: { name: 'hold-makers', permissions: ['manage-legal-hold'] },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBeLessThan(300);
  });

  it('writes an audit entry for each placing and lifting, with who, which recording and the reason', async () => {
    const id = rec['web-01']!;
    const before = (await audit('recording.hold.placed')).length;
    const reason = 'Subpoena 2026/88 — keep “everything” (ÆØÅ, مرحبا, 证据)';
    const placed = await hold('keeper', 'PUT', id, { reason: `  ${reason}  ` });
    expect(placed.status).toBe(200);
    expect(placed.body.legal_hold).toMatchObject({ held: true, by: 'keeper@example.test', reason });
    const lifted = await hold('keeper', 'DELETE', id, { reason: 'Subpoena withdrawn' });
    expect(lifted.status).toBe(200);
    expect(lifted.body.legal_hold).toEqual({ held: false, by: null, at: null, reason: null });
    const placedEntries = (await audit('recording.hold.placed')).slice(before);
    expect(placedEntries).toEqual([
      {
        actor: 'keeper@example.test',
        target: id,
        outcome: 'success',
        status: 200,
        detail: { recording: id, by: 'keeper@example.test', reason },
      },
    ]);
    expect((await audit('recording.hold.lifted')).at(-1)).toEqual({
      actor: 'keeper@example.test',
      target: id,
      outcome: 'success',
      status: 200,
      detail: { recording: id, by: 'keeper@example.test', reason: 'Subpoena withdrawn' },
    });
  });

  it('refuses hostile reasons and malformed ids with 400 and a message, and stores HTML as text', async () => {
    const id = rec['web-01']!;
    const hostile: unknown[] = [
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 'x'.repeat(501) },
      { reason: 'line one\r\nFAKE AUDIT ENTRY: admin lifted hold' },
      { reason: 'tab\there' },
      { reason: 'nul\u0000byte' },
      { reason: 'escape \u001b[2J cleared' },
      { reason: 'bell\u0007' },
      { reason: 'del\u007f' },
      { reason: 'c1\u0085next line' },
      { reason: 'line\u2028separator' },
      { reason: 'reads \u202Eesrever' },
      { reason: 'isolate \u2066x\u2069' },
      { reason: 'lone \ud800 surrogate' },
      { reason: 42 },
      { reason: ['a'] },
      { reason: { toString: 'x' } },
      { reason: null },
    ];
    for (const body of hostile) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await hold('keeper', method, id, body);
        expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body.message).toMatch(/reason/);
      }
    }
    for (const bad of ['not-a-uuid', `${id}x`, '..%2F..%2Fetc', "1' OR '1'='1"]) {
      const res = await server.call<{ message: string }>('PUT', `/api/recording/${bad}/hold`, {
        token: tokens.keeper,
        body: { reason: 'ok' },
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toMatch(/session id/);
    }
    const raw = await server.call('PUT', `/api/recording/${id}/hold`, {
      token: tokens.keeper,
      rawBody: '{"reason": "a", "__proto__": {"admin": true}}',
    });
    expect(raw.status).toBe(400);
    expect(await row(id)).toEqual({ held: false, by: null, reason: null });
    // HTML and SQL are plain text: kept byte for byte, answered as JSON strings.
    const html = `<img src=x onerror=alert(1)><script>document.cookie</script>'; DROP TABLE recordings; --`;
    const placed = await hold('keeper', 'PUT', id, { reason: html });
    expect(placed.status).toBe(200);
    expect(placed.headers.get('content-type')).toMatch(/application\/json/);
    expect(placed.body.legal_hold.reason).toBe(html);
    const detail = await server.call<{ legal_hold: HoldAnswer['legal_hold'] }>('GET', `/api/recording/${id}/data`, {
      token: tokens.keeper,
    });
    expect(detail.body.legal_hold.reason).toBe(html);
    const longest = 'é'.repeat(500);
    expect((await hold('keeper', 'DELETE', id, { reason: longest })).status).toBe(200);
    expect((await audit('recording.hold.lifted')).at(-1)?.detail).toMatchObject({ reason: longest });
  });
});
