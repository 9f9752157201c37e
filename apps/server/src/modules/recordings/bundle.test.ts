import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../recordings/chain.js';
import { type AgentProcess, eventually } from '../../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';
import { enrolGatewayHost } from '../../test/gateway-host.js';
import { type Sshd, ssh, startSshd, userKey } from '../../test/sshd.js';

/** The committed launcher of `npx gatehouse` (it runs the built agent, apps/agent/dist). */
const GATEHOUSE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../agent/bin/gatehouse.mjs');

/** The verifier's compiled file, which can be handed out alone. */
const VERIFIER = path.resolve(path.dirname(GATEHOUSE), '../dist/evidence/verify-bundle.js');

function run(args: string[], script = GATEHOUSE): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// A real session (OpenSSH → gateway → agent process → sshd), its bundle downloaded over HTTP and
// checked by the offline verifier as a separate process, trusting only the key's fingerprint.
describe.each(DATABASES)('evidence bundles on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let sshd: Sshd;
  let agent: AgentProcess;
  let recordingId: string;
  let fingerprint: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bundle-'));
  const vera = userKey(dir, 'vera');
  const download = (id: string, headers: Record<string, string> = {}, query = '') =>
    fetch(`${server.url}/api/recording/${id}/bundle${query}`, { headers });

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    sshd = await startSshd();
    ({ agent } = await enrolGatewayHost(server, admin, sshd, {
      hostname: 'web-01',
      definition: 'web-01 shell',
      user: { email: 'vera@example.test', password: 'password-123', publicKey: vera.publicKey },
    }));
    const session = ssh.call(null, [
      '-p',
      String(server.sshPort),
      '-i',
      vera.file,
      'vera@example.test@web-01@127.0.0.1',
      'echo bundle-marker-$((6*7)); head -c 300000 /dev/zero | tr "\\0" x; sleep 3; echo done',
    ]);
    // While it is live, the server signs a checkpoint (as its 4 s timer does), which the bundle must carry.
    const live = await eventually(
      async () =>
        (await server.call<{ recordings: { id: string }[] }>('GET', '/api/recording?live=true', { token: admin })).body
          .recordings,
      (l) => l.length > 0,
      60_000,
    );
    await eventually(
      async () => {
        await server.services.recordings.checkpoint();
        return server.services.repositories.recordings.checkpoints(live[0]!.id);
      },
      (c) => c.length > 0,
      60_000,
    );
    const exec = await session.done;
    expect(exec.code, exec.stderr).toBe(0);
    const list = await eventually(
      async () =>
        (
          await server.call<{ recordings: { id: string; ended_on: string | null }[] }>('GET', '/api/recording', {
            token: admin,
          })
        ).body.recordings,
      (l) => l.some((r) => r.ended_on !== null),
    );
    recordingId = list[0]!.id;
    // The fingerprint as Settings shows it: the only thing the verifier is given.
    fingerprint = (await server.call<{ fingerprint: string }>('GET', '/api/signing-key', { token: admin })).body
      .fingerprint;
    expect(fingerprint).toBe(keyFingerprint((await server.services.gatewayKeys.keys()).signingPublicKey));
    await server.createUser('walt@example.test', 'password-123', { roles: [] });
    await server.createUser('olga@example.test', 'password-123', { roles: [], permissions: ['list-recording'] });
  }, 180_000);
  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the bundle of a finished session, which the offline verifier finds intact with the fingerprint', async () => {
    const res = await download(recordingId, { 'authentication-token': admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    expect(res.headers.get('content-disposition')).toContain(`gatehouse-session-${recordingId}.tar`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(Number(res.headers.get('content-length')));
    expect(bytes.includes('bundle-marker-42')).toBe(true);
    const file = path.join(dir, `gatehouse-session-${recordingId}.tar`);
    fs.writeFileSync(file, bytes);
    const ok = await run(['verify', file, '--key', fingerprint]);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('INTACT');
    // Checkpoints signed while the session was live travel in the bundle and are checked.
    const checkpoints = await server.services.repositories.recordings.checkpoints(recordingId);
    expect(checkpoints.length).toBeGreaterThan(0);
    expect(ok.stdout).toContain(`${checkpoints.length} signed checkpoints (${checkpoints.length} signatures valid)`);
    expect(ok.code).toBe(0);
    // The verifier's compiled file alone (Node builtins only) gives the same verdict.
    const alone = path.join(dir, 'alone');
    fs.mkdirSync(alone);
    fs.copyFileSync(VERIFIER, path.join(alone, 'verify-bundle.js'));
    const single = await run([file, '--key', fingerprint], path.join(alone, 'verify-bundle.js'));
    expect(single.stdout).toContain('INTACT');
    expect(single.code).toBe(0);
    // The public key as a PEM file works as the trust anchor too.
    const pem = path.join(dir, 'server.pem');
    fs.writeFileSync(pem, (await server.services.gatewayKeys.keys()).signingPublicKey);
    expect((await run(['verify', file, '--key', pem])).code).toBe(0);
    // The download is in the audit trail, with who fetched which recording.
    const audit = await server.call<{ entries?: { action: string; target: string }[] }>('GET', '/api/audit', {
      token: admin,
    });
    expect(JSON.stringify(audit.body)).toContain('recording.bundle');
  });

  it('calls the same bundle tampered under another key, naming both keys', async () => {
    const file = path.join(dir, `gatehouse-session-${recordingId}.tar`);
    const other = keyFingerprint(
      generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    const bad = await run(['verify', file, '--key', other]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('TAMPERED');
    expect(bad.stdout).toContain(`signed by the key ${fingerprint}`);
    expect(bad.stdout).toContain(`not by the key you gave (${other})`);
    // A changed byte of the recording inside the bundle: the chunk and its bytes are named.
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('bundle-marker-42');
    bytes[at] = bytes[at]! ^ 0x01;
    const edited = path.join(dir, 'edited.tar');
    fs.writeFileSync(edited, bytes);
    const changed = await run(['verify', edited, '--key', fingerprint]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/chunk \d+ \(bytes \d+–\d+ of recording\.cast\) does not match its chain link/);
    // Usage mistakes and unreadable files are exit 2, never a verdict.
    expect((await run(['verify', path.join(dir, 'nothing.tar'), '--key', fingerprint])).code).toBe(2);
    expect((await run(['verify', file])).code).toBe(2);
  });

  it('lets a media ticket stand in for the token, and refuses without either', async () => {
    const { ticket } = (
      await server.call<{ ticket: string }>('POST', `/api/recording/${recordingId}/ticket`, { token: admin })
    ).body;
    const res = await download(recordingId, {}, `?ticket=${encodeURIComponent(ticket)}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect((await download(recordingId)).status).toBe(401);
    expect((await download(recordingId, {}, '?ticket=forged.ticket')).status).toBe(401);
  });

  it('shows the bundle only to who may watch the session', async () => {
    // Without list-recording: refused by the route's permission.
    const walt = await server.login('walt@example.test', 'password-123');
    expect((await download(recordingId, { 'authentication-token': walt })).status).toBe(403);
    // With list-recording but no reach to the session's host: answered as unknown.
    const olga = await server.login('olga@example.test', 'password-123');
    const res = await download(recordingId, { 'authentication-token': olga });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toMatch(/no session with that id/i);
  });

  it('answers 409 for a live session, 404 for an unknown one and 400 for a malformed id', async () => {
    const row = await server.services.repositories.recordings.find(recordingId);
    const live = await server.services.repositories.recordings.create({
      type: 'ssh',
      agentId: row!.agentId,
      hostname: 'web-01',
      userId: null,
      userEmail: 'vera@example.test',
      definitionId: null,
      definitionName: 'web-01 shell',
      startedOn: new Date(),
      endedOn: null,
      storagePath: path.join(dir, 'live.cast'),
    });
    const token = { 'authentication-token': admin };
    const busy = await download(live.id, token);
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { message: string }).message).toMatch(/live.*once the session ends/);
    expect((await download('6f1d9e0c-1111-4222-8333-444455556666', token)).status).toBe(404);
    const bad = await download('not-an-id', token);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/session id/);
  });
});
