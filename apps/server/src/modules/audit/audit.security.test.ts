import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks), as a spreadsheet reads them. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) field += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || record.length > 0) throw new Error(`unterminated record: ${JSON.stringify(record)}`);
  return records;
}

const SECRET = 'never-shown-secret-4f1d2c9e8b7a6350';

const HOSTILE = {
  actor: "=cmd|' /C calc'!A0",
  target: '+SUM(1,2)\r\n@evil,"quoted"\n-2+3',
  source: '@10.0.0.1',
  detail: { html: '<img src=x onerror=alert(1)>', line: 'a\r\nb\u2028c', formula: '-1+1' },
};

describe.each(DATABASES)('the audit trail is for list-audit-log holders and comes out escaped, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let reader: string;
  let plain: string;
  let logged = '';
  let hook: http.Server;
  let hookUrl = '';
  const seen: string[] = [];

  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      // The receiver refuses, so the server logs and records delivery errors too.
      req.on('end', () => res.writeHead(500).end(`refused ${body.length} bytes`));
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    server = await startTestServer(
      kind,
      { logLevel: 'debug' },
      { logOut: { write: (line: string) => (logged += line) } },
    );
    admin = await server.login();
    await server.createUser('reader@example.test', 'reader-password-1', { permissions: ['list-audit-log'] });
    await server.createUser('plain@example.test', 'plain-password-12');
    reader = await server.login('reader@example.test', 'reader-password-1');
    plain = await server.login('plain@example.test', 'plain-password-12');
    await server.services.repositories.audit.append({ action: 'hostile.entry', outcome: 'failure', ...HOSTILE });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => hook?.close(resolve));
  });

  const get = async (path: string, token: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { 'authentication-token': token } });
    const text = await res.text();
    seen.push(text);
    return { status: res.status, text };
  };

  it('answers 403 to a user without list-audit-log: list, actions and both exports', async () => {
    for (const path of [
      '/api/audit',
      '/api/audit/actions',
      '/api/audit/export?format=csv',
      '/api/audit/export?format=jsonl',
    ]) {
      const res = await get(path, plain);
      expect(res.status, path).toBe(403);
      expect(res.text, path).toContain('list-audit-log');
      expect(res.text).not.toContain('hostile.entry');
    }
    expect((await get('/api/audit/export?format=csv', 'no-such-token')).status).toBe(401);
  });

  it('keeps the streaming settings to administrators, even from holders of list-audit-log', async () => {
    expect((await get('/api/audit', reader)).status).toBe(200);
    expect((await get('/api/audit/streaming', reader)).status).toBe(403);
    const put = await server.call('PUT', '/api/audit/streaming', {
      token: reader,
      body: { syslog: { enabled: false, host: '', port: 514, tls: false }, webhook: { enabled: false, url: '' } },
    });
    expect(put.status).toBe(403);
  });

  it('defuses formulas and quotes line breaks in CSV: each cell reads back as written, with a leading quote', async () => {
    const res = await get('/api/audit/export?format=csv&action=hostile.entry', reader);
    expect(res.status).toBe(200);
    const records = parseCsv(res.text);
    expect(records).toHaveLength(2);
    const [header, row] = records as [string[], string[]];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('actor')).toBe(`'${HOSTILE.actor}`);
    expect(cell('target')).toBe(`'${HOSTILE.target}`);
    expect(cell('source')).toBe(`'${HOSTILE.source}`);
    expect(JSON.parse(cell('detail')!)).toEqual(HOSTILE.detail);
    // No cell of any record starts with a character a spreadsheet would run.
    expect(records.flat().some((c) => /^[=+\-@\t\r]/.test(c))).toBe(false);
  });

  it('writes one JSON Lines record per entry, line breaks and separators escaped', async () => {
    const res = await get('/api/audit/export?format=jsonl&action=hostile.entry', reader);
    const lines = res.text.split(/\r\n|\n|\r|\u2028|\u2029/).filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ action: 'hostile.entry', ...HOSTILE });
  });

  it('never shows the webhook secret back, nor writes it to the log, the trail or the settings row', async () => {
    const saved = await server.call('PUT', '/api/audit/streaming', {
      token: admin,
      body: {
        syslog: { enabled: false, host: '', port: 514, tls: false },
        webhook: { enabled: true, url: hookUrl, secret: SECRET },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ webhook: { enabled: true, secret_set: true } });
    seen.push(JSON.stringify(saved.body));
    // A failed save with the secret in it (a 400) must not echo it either.
    const refused = await server.call('PUT', '/api/audit/streaming', {
      token: admin,
      body: { syslog: { enabled: 'yes' }, webhook: { enabled: true, url: hookUrl, secret: SECRET } },
    });
    expect(refused.status).toBe(400);
    seen.push(JSON.stringify(refused.body));
    await server.services.repositories.audit.append({ action: 'hook.trigger', outcome: 'success' });
    // Wait for a delivery attempt (it fails: the receiver answers 500) and its error in the status.
    const deadline = Date.now() + 20_000;
    let status: { last_error: string | null } = { last_error: null };
    while (!status.last_error && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const answer = JSON.parse((await get('/api/audit/streaming', admin)).text) as {
        status: { webhook: typeof status };
      };
      status = answer.status.webhook;
    }
    expect(status.last_error).toBe('the webhook answered HTTP 500');
    seen.push((await get('/api/audit?limit=500', admin)).text);
    seen.push((await get('/api/audit/export?format=jsonl', admin)).text);
    seen.push((await get('/api/audit/export?format=csv', admin)).text);
    seen.push((await get('/api/openapi.json', admin)).text);
    const rows = await server.services.database.query<{ value: unknown }>(
      "SELECT value FROM settings WHERE key = 'audit_streaming'",
    );
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.stringify(rows)).toContain('secretSealed');
    expect(logged).toContain('audit delivery failed');
    expect(logged).not.toContain(SECRET);
    for (const text of seen) expect(text).not.toContain(SECRET);
    expect(seen.join('')).toContain('audit.streaming.saved');
  });
});
