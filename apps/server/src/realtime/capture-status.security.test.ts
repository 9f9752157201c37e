import {
  AGENT_CONNECT_PATH,
  AGENT_CREDENTIAL_HEADER,
  AGENT_ID_HEADER,
  type ServerToAgent,
  TOKEN_HEADER,
} from '@gatehouse/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { CAPTURE_NOTE_MAX, NOT_FILMED_ACTION, cleanNote } from '../recordings/capture-status.js';

/**
 * An agent speaking the protocol from the test (a forger needs no real agent): it enrols, says
 * hello, accepts every stream the server opens, and sends whatever capture status it is told.
 * Real agents report capture status too (apps/agent); here the statuses are chosen by the test.
 */
async function rawAgent(server: TestServer, key: string, hostname: string) {
  const enrolled = await server.call<{ id: string; credential: string }>('POST', '/api/agent/register', {
    body: { key, hostname, os: 1, version: 'test' },
  });
  const { id, credential } = enrolled.body;
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}${AGENT_CONNECT_PATH}`, {
    headers: { [AGENT_ID_HEADER]: id, [AGENT_CREDENTIAL_HEADER]: credential },
  });
  const records: { stream: number; recording_id: string }[] = [];
  let closed: { code: number; reason: string } | undefined;
  ws.on('message', (data: Buffer, binary: boolean) => {
    if (binary) return;
    const message = JSON.parse(data.toString()) as ServerToAgent;
    if (message.t === 'open') ws.send(JSON.stringify({ t: 'opened', stream: message.stream }));
    if (message.t === 'record') records.push({ stream: message.stream, recording_id: message.recording_id });
  });
  ws.on('close', (code, reason) => (closed = { code, reason: reason.toString() }));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ t: 'hello', hostname, os: 1, version: 'test' }));
  return {
    id,
    records,
    closed: () => closed,
    send: (message: unknown) => ws.send(JSON.stringify(message)),
    close: () => ws.close(),
  };
}

describe('notes from agents', () => {
  it('lose control characters and line breaks, keep markup as text, and are cut at 500 characters', () => {
    expect(cleanNote('a\r\nb\u001b[2J\u0085c\u202ed  e')).toBe('a b [2J c d e');
    expect(cleanNote('<b>bold</b>')).toBe('<b>bold</b>');
    expect(cleanNote(' \r\n\t ')).toBeNull();
    const tenKb = cleanNote('line\r\n'.repeat(2000))!;
    expect(Array.from(tenKb).length).toBe(CAPTURE_NOTE_MAX);
    expect(tenKb.endsWith('…')).toBe(true);
    // Characters outside the BMP are never split in half.
    expect(Array.from(cleanNote('😀'.repeat(600))!).length).toBe(CAPTURE_NOTE_MAX);
  });
});

describe.each(DATABASES)('capture status is taken only from the recording’s own agent, cleaned, on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let desk: Awaited<ReturnType<typeof rawAgent>>;
  let evil: Awaited<ReturnType<typeof rawAgent>>;
  let definitionId = '';
  let tunnel: WebSocket;
  let recordingId = '';
  const port = 3389;

  const row = async () => (await server.services.repositories.recordings.find(recordingId))!;
  const agentRow = async (id: string) =>
    (
      await server.call<{
        agents: {
          id: string;
          capture?: { filming: number; last_error: string | null; last_error_at: string | null };
        }[];
      }>('GET', '/api/agent', { token: admin })
    ).body.agents.find((a) => a.id === id)!.capture!;

  beforeAll(async () => {
    server = await startTestServer(kind);
    server.services.captureStatuses.timeoutMs = 60_000;
    server.services.captureStatuses.pollMs = 200;
    admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 't', uses: 2 } })
    ).body.key;
    desk = await rawAgent(server, key, 'desk-01');
    evil = await rawAgent(server, key, 'evil-01');
    await eventually(
      async () =>
        (await server.call<{ agents: { connected: boolean }[] }>('GET', '/api/agent', { token: admin })).body.agents,
      (a) => a.filter((x) => x.connected).length === 2,
    );
    await server.call('POST', `/api/agent/${desk.id}/config`, {
      token: admin,
      body: { whitelist: [port], recording_enabled: true },
    });
    definitionId = (
      await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/rdp', {
        token: admin,
        body: { name: 'desk', host_id: desk.id, unfilmed_rdp: 'allow' },
      })
    ).body.definition.id;
    const users = await server.call<{ users: { id: string; email: string }[] }>('GET', '/api/user', { token: admin });
    await server.call('PUT', `/api/tunneldefinition/${definitionId}/users`, {
      token: admin,
      body: { users: [users.body.users.find((u) => u.email === 'admin@example.test')!.id] },
    });
    tunnel = new WebSocket(`${server.url.replace('http', 'ws')}/api/tunnel/connect?definition=${definitionId}`, {
      headers: { [TOKEN_HEADER]: admin },
    });
    await new Promise<void>((resolve, reject) => {
      tunnel.once('open', resolve);
      tunnel.once('error', reject);
    });
    recordingId = (
      await eventually(
        async () => desk.records,
        (r) => r.length === 1,
      )
    )[0]!.recording_id;
  }, 180_000);

  afterAll(async () => {
    tunnel?.close();
    desk?.close();
    evil?.close();
    await server.stop();
  });

  it('a forged status for another agent’s recording is refused and changes nothing', async () => {
    evil.send({ t: 'capture', recording_id: recordingId, state: 'failed', detail: 'forged: not filmed' });
    evil.send({ t: 'capture', recording_id: recordingId, state: 'filming', display: ':66' });
    // Nor a recording that does not exist.
    evil.send({ t: 'capture', recording_id: '00000000-0000-4000-8000-000000000000', state: 'failed' });
    // The desk's own report after them is applied: the forged ones were read and dropped before it.
    desk.send({ t: 'capture', recording_id: recordingId, state: 'waiting', detail: 'no session yet' });
    await eventually(row, (r) => r.videoState === 'waiting');
    await new Promise((r) => setTimeout(r, 500));
    expect(await row()).toMatchObject({ videoState: 'waiting', videoNote: 'no session yet', endedOn: null });
    expect(await agentRow(desk.id)).toEqual({ filming: 0, last_error: null, last_error_at: null });
    expect(await agentRow(evil.id)).toEqual({ filming: 0, last_error: null, last_error_at: null });
    expect(tunnel.readyState).toBe(WebSocket.OPEN);
    expect((await server.services.repositories.audit.list({ limit: 10, action: NOT_FILMED_ACTION })).length).toBe(0);
    // The forger is not cut off for it (it may be honest about its own sessions), only ignored.
    expect(evil.closed()).toBeUndefined();
  });

  it('the own agent’s filming counts on the Agents screen', async () => {
    desk.send({ t: 'capture', recording_id: recordingId, state: 'filming', display: ':10' });
    await eventually(
      () => agentRow(desk.id),
      (c) => c.filming === 1,
    );
    expect(await row()).toMatchObject({ videoState: 'filming', videoNote: 'display :10' });
  });

  it('hostile detail is stored without line breaks or control characters, cut to 500 characters', async () => {
    const hostile = `ffmpeg died\r\nFAKE LOG LINE\u001b[31m <img src=x onerror=alert(1)>\u0000\u2028${'x'.repeat(420)}`;
    expect(hostile.length).toBeLessThanOrEqual(500);
    desk.send({ t: 'capture', recording_id: recordingId, state: 'failed', detail: hostile });
    // Allowed by the definition: the session goes on, marked not filmed with the cleaned reason.
    const marked = await eventually(row, (r) => r.videoState === 'not-filmed');
    const note = marked.videoNote!;
    // eslint-disable-next-line no-control-regex
    expect(note).not.toMatch(/[\r\n\u0000-\u001f\u007f\u2028]/);
    expect(note.startsWith('ffmpeg died FAKE LOG LINE [31m <img src=x onerror=alert(1)>')).toBe(true);
    expect(Array.from(note).length).toBeLessThanOrEqual(CAPTURE_NOTE_MAX);
    expect(tunnel.readyState).toBe(WebSocket.OPEN);
    const capture = await agentRow(desk.id);
    expect(capture.last_error).toBe(note);
    expect(capture.filming).toBe(0);
    const [entry] = await server.services.repositories.audit.list({ limit: 1, action: NOT_FILMED_ACTION });
    expect(entry).toMatchObject({ target: recordingId, outcome: 'success' });
    expect((entry!.detail as { reason: string }).reason).toBe(note);
    // The API answers it as text; the console renders text, never markup.
    const detail = await server.call<{ video_state: string; video_note: string }>(
      'GET',
      `/api/recording/${recordingId}/data`,
      { token: admin },
    );
    expect(detail.body).toMatchObject({ video_state: 'not-filmed', video_note: note });
    // Not filmed stays: a later report cannot turn the gap back into "filming".
    desk.send({ t: 'capture', recording_id: recordingId, state: 'filming', display: ':10' });
    await new Promise((r) => setTimeout(r, 500));
    expect((await row()).videoState).toBe('not-filmed');
  });

  it('a 10 kB detail breaks the protocol: the socket is closed and nothing is stored', async () => {
    const before = await row();
    desk.send({ t: 'capture', recording_id: recordingId, state: 'failed', detail: 'y'.repeat(10_000) });
    await eventually(
      async () => desk.closed(),
      (c) => c !== undefined,
    );
    expect(desk.closed()!.code).toBe(1008);
    const after = await row();
    expect({ state: after.videoState, note: after.videoNote }).toEqual({
      state: before.videoState,
      note: before.videoNote,
    });
    expect(String((await agentRow(desk.id)).last_error)).not.toContain('yyyy');
  });
});
