import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';

type Integrity = { status: string; message: string };

/**
 * The property: the recovery sweep never recovers a session its own instance is finishing. Between
 * finish() taking a recording off the live list and its row being ended, the row is open in the
 * database and names this instance; a sweep then (every 30 s in production, and whenever an
 * instance is found gone) took it for an orphan and recovered it while finish() wrote it: the end
 * became 'recovered' at the last flush (an RDP session of minutes read 1 s long), the file was cut
 * and two manifests raced. Found by plain-x-desktop.test.ts, whose sweep runs every half second.
 */
describe.each(DATABASES)('the recovery sweep and a session being finished on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let agentId = '';

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'sweep' } })
    ).body.key;
    agentId = (
      await server.call<{ id: string }>('POST', '/api/agent/register', {
        body: { key, hostname: 'db-01', os: 1, version: 'test' },
      })
    ).body.id;
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a sweep while a session is being finished leaves it to finish: closed, its own end, intact', async () => {
    const recordings = server.services.recordings;
    for (let round = 0; round < 5; round += 1) {
      const live = await recordings.start({
        type: 'generic',
        agentId,
        hostname: 'db-01',
        userId: null,
        userEmail: 'admin@example.test',
        definitionId: null as never,
        definitionName: 'echo',
        width: 80,
        height: 24,
      });
      live.recorder.output(Buffer.from('some bytes\r\n'));
      await new Promise((r) => setTimeout(r, 50));
      // finish() leaves the live list at once and ends the row later; the sweep runs in between.
      const finishing = recordings.finish(live, 'closed');
      const swept = recordings.recoverOrphans(0);
      const [manifest] = await Promise.all([finishing, swept]);
      expect(manifest?.end_reason).toBe('closed');
      const row = (await server.services.repositories.recordings.find(live.id))!;
      expect(row.endReason).toBe('closed');
      expect(row.endedOn?.toISOString()).toBe(manifest?.ended_on);
      const integrity = (await server.call<Integrity>('GET', `/api/recording/${live.id}/verify`, { token: admin }))
        .body;
      expect(integrity.status, integrity.message).toBe('intact');
    }
  });
});
