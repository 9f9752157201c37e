import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

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
});
