import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

interface Hold {
  held: boolean;
  by: string | null;
  at: string | null;
  reason: string | null;
}

describe.each(DATABASES)('legal hold on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let finished = '';
  let live = '';

  const hold = (method: 'PUT' | 'DELETE', id: string, reason: string) =>
    server.call<{ message: string; legal_hold: Hold }>(method, `/api/recording/${id}/hold`, {
      token: admin,
      body: { reason },
    });
  const listed = async (query: string) =>
    (
      await server.call<{ recordings: { id: string; legal_hold: Hold }[] }>('GET', `/api/recording?${query}`, {
        token: admin,
      })
    ).body.recordings;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const dir = path.join(server.dataDir, 'recordings', 'hold');
    fs.mkdirSync(dir, { recursive: true });
    const make = async (name: string, ended: boolean) => {
      const file = path.join(dir, `${name}.cast`);
      fs.writeFileSync(file, `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n`);
      return (
        await server.services.repositories.recordings.create({
          type: 'ssh',
          hostname: 'web-01',
          userEmail: 'alice@example.test',
          startedOn: new Date(Date.now() - 3_600_000),
          endedOn: ended ? new Date(Date.now() - 60_000) : null,
          storagePath: file,
        })
      ).id;
    };
    finished = await make('finished', true);
    live = await make('live', false);
  });
  afterAll(async () => server.stop());

  it('shows no hold until one is placed, then who placed it, when and why, in the list and the detail', async () => {
    const before = await listed('');
    expect(before.map((r) => r.legal_hold)).toEqual([
      { held: false, by: null, at: null, reason: null },
      { held: false, by: null, at: null, reason: null },
    ]);
    const t0 = Date.now();
    const placed = await hold('PUT', finished, 'Case 2026-114');
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.message).toMatch(/placed/i);
    const facts = placed.body.legal_hold;
    expect(facts).toMatchObject({ held: true, by: 'admin@example.test', reason: 'Case 2026-114' });
    expect(Math.abs(Date.parse(facts.at!) - t0)).toBeLessThan(60_000);
    const detail = await server.call<{ legal_hold: Hold }>('GET', `/api/recording/${finished}/data`, { token: admin });
    expect(detail.body.legal_hold).toEqual(facts);
    expect((await listed('')).find((r) => r.id === finished)?.legal_hold).toEqual(facts);
  });

  it('filters the list with hold=true and hold=false', async () => {
    expect((await listed('hold=true')).map((r) => r.id)).toEqual([finished]);
    expect((await listed('hold=false')).map((r) => r.id)).toEqual([live]);
    const total = await server.call<{ total: number }>('GET', '/api/recording?hold=true&with_total=true', {
      token: admin,
    });
    expect(total.body.total).toBe(1);
    const bad = await server.call<{ message: string }>('GET', '/api/recording?hold=yes', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/hold/);
  });

  it('answers 409 with a message when placing a hold already placed or lifting one that is not', async () => {
    const again = await hold('PUT', finished, 'Second case');
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/on legal hold already.*admin@example\.test/);
    // The first hold's facts are untouched.
    expect((await listed('hold=true'))[0]?.legal_hold.reason).toBe('Case 2026-114');
    const lifted = await hold('DELETE', finished, 'Case closed');
    expect(lifted.status).toBe(200);
    expect(lifted.body.legal_hold).toEqual({ held: false, by: null, at: null, reason: null });
    const twice = await hold('DELETE', finished, 'Case closed');
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/not on legal hold/);
  });

  it('holds a live recording, and the hold outlasts the session’s end', async () => {
    expect((await hold('PUT', live, 'Incident 9: live capture')).status).toBe(200);
    await server.services.repositories.recordings.finish(live, { endReason: 'closed' });
    const row = await server.services.repositories.recordings.find(live);
    expect(row).toMatchObject({ legalHold: true, legalHoldReason: 'Incident 9: live capture' });
    expect(row?.endedOn).not.toBeNull();
  });

  it('answers two people placing a hold at once with one success and one conflict', async () => {
    const answers = await Promise.all([hold('PUT', finished, 'first'), hold('PUT', finished, 'second')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.legal_hold.reason;
    expect((await server.services.repositories.recordings.find(finished))?.legalHoldReason).toBe(winner);
  });
});
