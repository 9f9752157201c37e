import fs from 'node:fs';
import path from 'node:path';
import { AGENT_CONNECT_PATH, AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER } from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { cleanHostNames } from '../../db/migrations/0014-agent-trust.js';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type Key = { uuid: string; key: string; expires_at: string; uses: number; uses_left: number; message: string };
type ErrorAnswer = { message: string };

const HOSTILE = 'evil\r\nX-Injected: yes\r\n<script>alert(1)</script>"; filename=x.sh';

describe.each(DATABASES)('agents and registration keys, as an attacker tries them, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
  });
  afterAll(async () => server.stop());

  const newKey = async (body: Record<string, unknown>) => {
    const res = await server.call<Key>('POST', '/api/apikey', {
      token: admin,
      body: { description: 'fleet', ...body },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const register = (key: string, hostname: string) =>
    server.call<{ id: string; credential: string } & ErrorAnswer>('POST', '/api/agent/register', {
      body: { key, hostname, os: 1, version: '2.0.0' },
    });

  it('a registration key cannot enrol more agents than its use count', async () => {
    const key = await newKey({ uses: 2 });
    expect(key).toMatchObject({ uses: 2, uses_left: 2 });
    // Five enrolments at once: the use count is taken in one UPDATE, so exactly two get in.
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => register(key.key, `race-${n}`)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(refused[0]?.body.message).toMatch(/has enrolled all the agents it may \(2\)\. Generate a new key/);
    const listed = await server.call<{ keys: Key[] }>('GET', '/api/apikey', { token: admin });
    expect(listed.body.keys.find((k) => k.uuid === key.uuid)).toMatchObject({ uses: 2, uses_left: 0 });
    const agents = await server.call<{ agents: { hostname: string }[] }>('GET', '/api/agent', { token: admin });
    expect(agents.body.agents.filter((a) => a.hostname.startsWith('race-'))).toHaveLength(2);
  });

  it('a registration key enrols one agent within a day unless chosen otherwise', async () => {
    const key = await newKey({});
    expect(key).toMatchObject({ uses: 1, uses_left: 1 });
    const hours = (Date.parse(key.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await register(key.key, 'once-01')).status).toBe(201);
    expect((await register(key.key, 'once-02')).status).toBe(401);
  });

  it('an expired registration key is refused', async () => {
    const key = await newKey({ uses: 5, expires_in_hours: 1 });
    await server.services.database.query(
      `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE uuid = $1`,
      [key.uuid],
    );
    const res = await register(key.key, 'late-01');
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/expired at .*Generate a new key/);
    const rows = await server.services.database.query<{ uses_left: number }>(
      'SELECT uses_left FROM api_keys WHERE uuid = $1',
      [key.uuid],
    );
    expect(rows[0]?.uses_left).toBe(5);
  });

  it('a registration key cannot be made without bounds, nor carry permissions', async () => {
    for (const body of [
      { uses: 0 },
      { uses: 10_001 },
      { uses: 1.5 },
      { expires_in_hours: 0 },
      { expires_in_hours: 8761 },
      { expires_in_hours: 'forever' },
      { permissions: ['modify-user'] },
      { permissions: 'list-host' },
    ]) {
      const res = await server.call<ErrorAnswer & { errors?: string[] }>('POST', '/api/apikey', {
        token: admin,
        body: { description: 'unbounded', ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/uses must|expires_in_hours must|carry no permissions/);
    }
  });

  it('a host name that is not DNS-like is refused at enrolment, and names are lowercased', async () => {
    const key = await newKey({ uses: 20 });
    for (const hostname of [
      HOSTILE,
      'a b',
      'tab\there',
      '<b>x</b>',
      '-lead',
      'trail-',
      'a..b',
      'x'.repeat(64),
      'ünï',
    ]) {
      const res = await register(key.key, hostname);
      expect(res.status, hostname).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/hostname must be a DNS-like name/);
    }
    const ok = await register(key.key, 'Web-01.Example.TEST');
    expect(ok.status).toBe(201);
    const agents = await server.call<{ agents: { id: string; hostname: string }[] }>('GET', '/api/agent', {
      token: admin,
    });
    expect(agents.body.agents.find((a) => a.id === ok.body.id)?.hostname).toBe('web-01.example.test');
    // A refused name takes no use of the key.
    const listed = await server.call<{ keys: Key[] }>('GET', '/api/apikey', { token: admin });
    expect(listed.body.keys.find((k) => k.uuid === key.uuid)?.uses_left).toBe(19);
  });

  it('an agent cannot rename its host', async () => {
    const key = await newKey({});
    const enrolled = await register(key.key, 'payroll-db');
    expect(enrolled.status).toBe(201);
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
      headers: { [AGENT_ID_HEADER]: enrolled.body.id, [AGENT_CREDENTIAL_HEADER]: enrolled.body.credential },
    });
    const config = new Promise<unknown>((resolve, reject) => {
      ws.on('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8'))));
      ws.on('error', reject);
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    // The hostile agent claims another name, with control characters and markup.
    ws.send(JSON.stringify({ t: 'hello', hostname: HOSTILE, os: 1, version: '9.9.9' }));
    expect(await config).toMatchObject({ t: 'config' });
    const agents = await server.call<{ agents: { id: string; hostname: string; version: string }[] }>(
      'GET',
      '/api/agent',
      { token: admin },
    );
    const row = agents.body.agents.find((a) => a.id === enrolled.body.id);
    expect(row).toMatchObject({ hostname: 'payroll-db', version: '9.9.9' });
    // Nor can it take another host's name (the gateway finds hosts by name).
    ws.send(JSON.stringify({ t: 'hello', hostname: 'race-1', os: 1, version: '9.9.9' }));
    await new Promise((r) => setTimeout(r, 300));
    const again = await server.call<{ agents: { id: string; hostname: string }[] }>('GET', '/api/agent', {
      token: admin,
    });
    expect(again.body.agents.find((a) => a.id === enrolled.body.id)?.hostname).toBe('payroll-db');
    ws.close();
    // The attempt is audited without the hostile bytes.
    const audit = await server.services.database.query<{ actor: string; detail: unknown }>(
      `SELECT actor, detail FROM audit_log WHERE action = 'agent.hostname_ignored' AND target = $1`,
      [enrolled.body.id],
    );
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect(audit[0]?.actor).toBe('agent:payroll-db');
    expect(JSON.stringify(audit)).not.toMatch(/script|X-Injected|\\r/);
    expect(JSON.stringify(audit[0]?.detail)).toMatch(/characters, sha256 [0-9a-f]{16}/);
  });

  it('a hostile host name never makes a download answer 500', async () => {
    // A name stored before names were checked (an old agent's hello), still on the host and its recordings.
    const key = await newKey({});
    const enrolled = await register(key.key, 'legacy-01');
    await server.services.database.query('UPDATE agents SET hostname = $1 WHERE id = $2', [HOSTILE, enrolled.body.id]);
    const file = path.join(server.dataDir, 'recordings', 'hostile', 'one.cast');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `${JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 })}\n[0.5,"o","hi\\r\\n"]\n`,
    );
    const recording = await server.services.repositories.recordings.create({
      type: 'ssh',
      agentId: enrolled.body.id,
      hostname: HOSTILE,
      userId: null,
      userEmail: 'alice@example.test',
      definitionId: null,
      definitionName: 'shell',
      startedOn: new Date(Date.now() - 60_000),
      endedOn: new Date(),
      storagePath: file,
    });
    const download = await server.call('GET', `/api/recording/${recording.id}/cast?download=true`, { token: admin });
    expect(download.status).toBe(200);
    expect(download.headers.get('x-injected')).toBeNull();
    const disposition = download.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/);
    expect(decodeURIComponent(disposition.split("''")[1] ?? '')).toContain(HOSTILE);
    for (const url of [
      '/api/recording',
      `/api/recording/${recording.id}/data`,
      '/api/agent',
      `/api/agent/${enrolled.body.id}/config`,
      '/api/tunneldefinition/all',
      '/api/agent/dashboard',
    ]) {
      const res = await server.call('GET', url, { token: admin });
      expect(res.status, url).toBeLessThan(500);
    }
    const listed = await server.call<{ agents: { hostname: string }[] }>('GET', '/api/agent', { token: admin });
    // JSON carries it escaped; the console renders text, never markup.
    expect(listed.body.agents.some((a) => a.hostname === HOSTILE)).toBe(true);
  });

  it('host names stored before the fix are cleaned by migration 0014', async () => {
    const key = await newKey({});
    const enrolled = await register(key.key, 'old-01');
    await server.services.database.query('UPDATE agents SET hostname = $1 WHERE id = $2', [
      `\u001b[31m${HOSTILE}`,
      enrolled.body.id,
    ]);
    await server.services.database.exec(cleanHostNames);
    const rows = await server.services.database.query<{ hostname: string }>('SELECT hostname FROM agents');
    for (const row of rows) expect(row.hostname).toMatch(/^[a-z0-9.-]+$/);
    const cleaned = await server.services.database.query<{ hostname: string }>(
      'SELECT hostname FROM agents WHERE id = $1',
      [enrolled.body.id],
    );
    expect(cleaned[0]?.hostname).toBe('31mevil-x-injected-yes-script-alert-1-script-filename-x.sh');
    const recordings = await server.services.database.query<{ hostname: string }>('SELECT hostname FROM recordings');
    for (const row of recordings) expect(row.hostname).toMatch(/^[A-Za-z0-9.-]+$/);
  });
});
