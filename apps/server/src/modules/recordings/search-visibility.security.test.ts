import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { type TestHost, enrolHost, recordSession } from '../../test/recorded-sessions.js';

type Found = { sessions: { recording: { id: string; host: { hostname: string } } }[]; next_cursor: string | null };

/**
 * Search across recordings never shows a searcher a session the session list would not show them:
 * the same permission (list-recording) and the same hosts (the policy's reach), whatever the text.
 */
describe.each(DATABASES)('search visibility on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let web: TestHost;
  let db: TestHost;
  const mine: string[] = [];
  const theirs: string[] = [];
  // Every kind of indexed text holds the same secret on both hosts.
  const secret = 'zq-secret-7731';
  const steps = [
    { o: `echo ${secret}\r\n${secret}\r\n` },
    { i: `echo ${secret}\r` },
    { m: { type: 'channel', kind: 'exec', command: `cat /root/${secret}` } },
    {
      m: {
        type: 'file-transfer',
        protocol: 'sftp',
        op: 'write',
        path: `/srv/${secret}/backup.sql`,
        direction: 'upload',
        bytes: 1,
        sha256: null,
        outcome: 'ok',
      },
    },
  ];
  const userId = async (email: string) => (await server.services.repositories.users.findByEmail(email))!.id;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    web = await enrolHost(server, admin, 'web-01');
    db = await enrolHost(server, admin, 'db-01');
    // Interleaved, so a page of another host's sessions lies between each of the searcher's.
    for (let i = 0; i < 3; i += 1) {
      mine.push(await recordSession(server, web, 'web-user@example.test', steps));
      theirs.push(await recordSession(server, db, 'someone@example.test', steps));
    }
    await server.services.textIndexer.idle();
    await server.createUser('web-user@example.test', 'web-user-password', { permissions: ['list-recording'] });
    await server.createUser('lister@example.test', 'lister-password', {
      permissions: ['list-recording', 'list-all-tunnel-definitions'],
    });
    await server.createUser('plain@example.test', 'plain-password');
    await server.call('PUT', `/api/tunneldefinition/${web.definitionId}/users`, {
      token: admin,
      body: { users: [await userId('web-user@example.test')] },
    });
  }, 120_000);
  afterAll(async () => server.stop());

  /** Every session a search returns, following next_cursor to the end. */
  const searchAll = async (token: string, query: string, first?: string) => {
    const ids: string[] = [];
    let cursor: string | null | undefined = first;
    for (let pages = 0; pages < 20; pages += 1) {
      const res: { status: number; body: Found } = await server.call<Found>(
        'GET',
        `/api/recording/search?${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(...res.body.sessions.map((s) => s.recording.id));
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    return ids;
  };

  it('the administrator finds the text in every session (the text does match elsewhere)', async () => {
    expect(new Set(await searchAll(admin, `q=${secret}`))).toEqual(new Set([...mine, ...theirs]));
  });

  it('a user reaching only their host never gets a hit from another host, in any kind of text', async () => {
    const token = await server.login('web-user@example.test', 'web-user-password');
    for (const query of [
      `q=${secret}`,
      'q=backup.sql',
      'q=cat%20/root',
      `q=${secret}&kind=input`,
      `q=${secret}&kind=file`,
    ]) {
      const found = await searchAll(token, query);
      expect(found, query).toEqual([...mine].reverse());
      for (const id of theirs) expect(found).not.toContain(id);
    }
    // Exactly the sessions the session list shows this user.
    const list = await server.call<{ recordings: { id: string }[] }>('GET', '/api/recording', { token });
    expect(new Set(list.body.recordings.map((r) => r.id))).toEqual(new Set(mine));
  });

  it('a cursor pointing between another host’s sessions still yields only the searcher’s', async () => {
    const token = await server.login('web-user@example.test', 'web-user-password');
    const [row] = await server.services.database.query<{ us: string }>(
      'SELECT (extract(epoch from started_on) * 1000000)::bigint::text AS us FROM recordings WHERE id = $1',
      [theirs[2]],
    );
    const crafted = Buffer.from(JSON.stringify([row!.us, theirs[2]])).toString('base64url');
    const found = await searchAll(token, `q=${secret}`, crafted);
    expect(found.length).toBeGreaterThan(0);
    for (const id of found) expect(mine).toContain(id);
  });

  it('a holder of list-recording who reaches no host finds nothing; without list-recording the call is refused', async () => {
    const lister = await server.login('lister@example.test', 'lister-password');
    expect(await searchAll(lister, `q=${secret}`)).toEqual([]);
    const plain = await server.login('plain@example.test', 'plain-password');
    const refused = await server.call('GET', `/api/recording/search?q=${secret}`, { token: plain });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(secret.slice(3));
  });

  it('a user taken off the host’s definition stops finding its sessions at once', async () => {
    const token = await server.login('web-user@example.test', 'web-user-password');
    expect((await searchAll(token, `q=${secret}`)).length).toBe(3);
    await server.call('PUT', `/api/tunneldefinition/${web.definitionId}/users`, { token: admin, body: { users: [] } });
    expect(await searchAll(token, `q=${secret}`)).toEqual([]);
  });
});
