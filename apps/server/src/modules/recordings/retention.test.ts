import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { RecordingRetention } from './retention.js';

const DAY = 86_400_000;

describe.each(DATABASES)('recording retention on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
  });
  afterAll(async () => server.stop());

  const make = async (name: string, endedDaysAgo: number | null) => {
    const file = path.join(server.dataDir, 'recordings', 'retention', `${name}.cast`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    for (const f of [file, `${file}.chain`, `${file}.manifest.json`, file.replace(/\.cast$/, '.mp4')])
      fs.writeFileSync(f, name);
    const row = await server.services.repositories.recordings.create({
      type: 'ssh',
      hostname: 'web-01',
      userEmail: 'alice@example.test',
      startedOn: new Date(Date.now() - ((endedDaysAgo ?? 0) + 1) * DAY),
      endedOn: endedDaysAgo === null ? null : new Date(Date.now() - endedDaysAgo * DAY),
      storagePath: file,
    });
    return { id: row.id, file };
  };

  it('keeps everything while retention is 0, then really removes what is older than the setting', async () => {
    const old = await make('old', 40);
    const recent = await make('recent', 5);
    const live = await make('live', null);
    expect(await server.services.retention.sweep()).toBe(0);
    const saved = await server.call('POST', '/api/settings', { token: admin, body: { recording_retention_days: 30 } });
    expect(saved.status).toBe(200);
    expect(await server.services.retention.sweep()).toBe(1);
    expect(await server.services.repositories.recordings.find(old.id)).toBeUndefined();
    for (const f of [old.file, `${old.file}.chain`, `${old.file}.manifest.json`, old.file.replace(/\.cast$/, '.mp4')])
      expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(recent.file)).toBe(true);
    expect(await server.services.repositories.recordings.find(recent.id)).toBeDefined();
    expect(await server.services.repositories.recordings.find(live.id)).toBeDefined();
    const audit = await server.call<{ entries: { action: string }[] }>('GET', '/api/audit?action=recording.retention', {
      token: admin,
    });
    expect(audit.body.entries).toHaveLength(1);
  });

  it('never removes a recording on legal hold, files or row; lifting the hold makes it removable again', async () => {
    const saved = await server.call('POST', '/api/settings', { token: admin, body: { recording_retention_days: 30 } });
    expect(saved.status).toBe(200);
    const held = await make('held', 90);
    const unheld = await make('unheld', 90);
    const filesOf = (file: string) => [file, `${file}.chain`, `${file}.manifest.json`, file.replace(/\.cast$/, '.mp4')];
    const placed = await server.call('PUT', `/api/recording/${held.id}/hold`, {
      token: admin,
      body: { reason: 'Case 2026-114: preserve for litigation' },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);

    expect(await server.services.retention.sweep()).toBe(1);
    expect(await server.services.repositories.recordings.find(unheld.id)).toBeUndefined();
    for (const f of filesOf(unheld.file)) expect(fs.existsSync(f), f).toBe(false);
    expect(await server.services.repositories.recordings.find(held.id)).toMatchObject({ legalHold: true });
    for (const f of filesOf(held.file)) expect(fs.readFileSync(f, 'utf8'), f).toBe('held');
    // A second sweep keeps it again, and says so.
    expect(await server.services.retention.sweep()).toBe(0);
    expect(await server.services.repositories.recordings.find(held.id)).toBeDefined();
    const audit = await server.services.database.query<{ detail: Record<string, unknown> }>(
      "SELECT detail FROM audit_log WHERE action = 'recording.retention' ORDER BY id",
    );
    expect(audit.at(-2)?.detail).toMatchObject({ removed: 1, kept_on_hold: 1, retention_days: 30 });
    expect(audit.at(-1)?.detail).toMatchObject({ removed: 0, kept_on_hold: 1, retention_days: 30 });

    const lifted = await server.call('DELETE', `/api/recording/${held.id}/hold`, {
      token: admin,
      body: { reason: 'Case 2026-114 closed' },
    });
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);
    expect(await server.services.retention.sweep()).toBe(1);
    expect(await server.services.repositories.recordings.find(held.id)).toBeUndefined();
    for (const f of filesOf(held.file)) expect(fs.existsSync(f), f).toBe(false);
  });

  it('keeps a recording whose hold lands between the sweep’s selection and its delete', async () => {
    // The DELETE itself takes only rows not on hold: a hold committed after the SELECT still wins.
    const saved = await server.call('POST', '/api/settings', { token: admin, body: { recording_retention_days: 30 } });
    expect(saved.status).toBe(200);
    const racing = await make('racing', 90);
    const real = server.services.database.db;
    let raced = false;
    const placeHold = async () => {
      raced = true;
      await server.services.database.query(
        "UPDATE recordings SET legal_hold = true, legal_hold_by = 'racer@example.test', legal_hold_at = now(), " +
          "legal_hold_reason = 'race' WHERE id = $1",
        [racing.id],
      );
    };
    // The real database; only the moment between SELECT and DELETE is widened to place the hold.
    const racingDb = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== 'delete') return Reflect.get(target, prop, receiver) as unknown;
        return (table: Parameters<typeof real.delete>[0]) => ({
          where: (condition: Parameters<ReturnType<typeof real.delete>['where']>[0]) => ({
            returning: (columns: Record<string, never>) => {
              const query = target.delete(table).where(condition).returning(columns);
              return {
                then: (ok: never, fail: never) =>
                  placeHold()
                    .then(async () => query)
                    .then(ok, fail),
              };
            },
          }),
        });
      },
    });
    const retention = new RecordingRetention(
      racingDb,
      server.services.settings,
      server.services.repositories.audit,
      server.services.log,
    );
    expect(await retention.sweep()).toBe(0);
    expect(raced).toBe(true);
    expect(await server.services.repositories.recordings.find(racing.id)).toMatchObject({ legalHold: true });
    expect(fs.existsSync(racing.file)).toBe(true);
  });
});
