import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedManifest } from '../recordings/chain.js';
import { verifyRecording } from '../recordings/verify.js';
import { type AgentProcess, eventually } from '../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../test/harness.js';
import { enrolGatewayHost } from '../test/gateway-host.js';
import { SSH_CLIENT_OPTIONS, type Sshd, startSshd, userKey } from '../test/sshd.js';

type Rec = { id: string; ended_on: string | null; kind: string | null; command: string | null };
type Transfer = {
  t: number;
  protocol: string;
  op: string;
  path: string;
  target: string | null;
  direction: string | null;
  bytes: number;
  sha256: string | null;
  outcome: string;
  note: string | null;
};

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const shaOf = (file: string) => sha(fs.readFileSync(file));

/** Runs an OpenSSH client (never synchronously: the server under test shares this event loop). */
function run(command: string, args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

// Real OpenSSH sftp and scp → the gateway → a real agent → Debian's sshd (internal-sftp), on loopback.
describe.each(DATABASES)('file transfers through the gateway on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let sshd: Sshd;
  let agent: AgentProcess;
  const local = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ft-local-'));
  // The host's side: sshd logs in as this user, so its files are this machine's.
  const remote = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ft-remote-'));
  const vera = userKey(local, 'vera');
  const login = () => `vera@example.test@web-01@127.0.0.1`;
  const clientOptions = (portFlag: string) => [
    portFlag,
    String(server.sshPort),
    '-i',
    vera.file,
    ...SSH_CLIENT_OPTIONS,
  ];

  const recordings = async (query = '') =>
    (await server.call<{ recordings: Rec[] }>('GET', `/api/recording${query}`, { token: admin })).body.recordings;
  /** Runs a client and answers the recording of the session it made, once ended. */
  async function session(work: () => Promise<{ code: number | null; stderr: string }>): Promise<Rec> {
    const before = new Set((await recordings()).map((r) => r.id));
    const result = await work();
    expect(result.code, result.stderr).toBe(0);
    const list = await eventually(recordings, (l) => l.some((r) => !before.has(r.id) && r.ended_on !== null));
    return list.find((r) => !before.has(r.id))!;
  }
  const transfers = async (id: string) =>
    (await server.call<{ transfers: Transfer[] }>('GET', `/api/recording/${id}/transfers`, { token: admin })).body
      .transfers;
  /** The cast's events, and its markers parsed. */
  async function cast(id: string) {
    const row = await server.services.repositories.recordings.find(id);
    const text = fs.readFileSync(row!.storagePath, 'utf8');
    const events = text
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => JSON.parse(l) as [number, string, string]);
    const markers = events
      .filter((e) => e[1] === 'm')
      .map(
        (e) =>
          ({ t: e[0], ...JSON.parse(e[2]) }) as Transfer & {
            type: string;
            kind?: string;
          },
      );
    const intact = await verifyRecording(
      row!.storagePath,
      row!.manifest as SignedManifest,
      (await server.services.gatewayKeys.keys()).signingPublicKey,
    );
    return { size: Buffer.byteLength(text), events, markers, intact };
  }
  /** The table's events and the cast's file-transfer markers say the same. */
  async function agreed(id: string) {
    const rows = await transfers(id);
    const { markers, intact, size, events } = await cast(id);
    expect(intact).toEqual({ intact: true, problems: [] });
    const fileMarkers = markers.filter((m) => m.type === 'file-transfer');
    const pick = (e: Transfer) => [e.op, e.path, e.direction, e.bytes, e.sha256, e.outcome];
    expect(fileMarkers.map(pick)).toEqual(rows.map(pick));
    expect(fileMarkers.map((m) => m.t)).toEqual(rows.map((r) => r.t));
    return { rows, markers, size, events };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    sshd = await startSshd();
    ({ agent } = await enrolGatewayHost(server, admin, sshd, {
      hostname: 'web-01',
      definition: 'web-01 files',
      user: { email: 'vera@example.test', password: 'password-123', publicKey: vera.publicKey },
    }));
  }, 180_000);
  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    sshd?.stop();
    await server?.stop();
    fs.rmSync(local, { recursive: true, force: true });
    fs.rmSync(remote, { recursive: true, force: true });
  });

  it('records sftp put, get, mkdir, rename, rm and rmdir with paths, sizes and matching SHA-256s', async () => {
    const payload = randomBytes(700_000);
    const upload = path.join(local, 'payload.bin');
    fs.writeFileSync(upload, payload);
    const dir = path.join(remote, 'inbox');
    const placed = path.join(dir, 'up.bin');
    const back = path.join(local, 'back.bin');
    const batch = path.join(local, 'batch1');
    fs.writeFileSync(batch, [`mkdir ${dir}`, `put ${upload} ${placed}`, `get ${placed} ${back}`, ''].join('\n'));
    const first = await session(() => run('sftp', [...clientOptions('-P'), '-b', batch, login()]));
    expect(first.kind).toBe('sftp');
    // Both ends: the file on the host and the copy fetched back.
    expect(shaOf(placed)).toBe(sha(payload));
    expect(shaOf(back)).toBe(sha(payload));
    const { rows, markers, size } = await agreed(first.id);
    expect(rows.map((r) => [r.op, r.path, r.direction, r.bytes, r.outcome])).toEqual([
      ['mkdir', dir, null, 0, 'ok'],
      ['write', placed, 'upload', payload.length, 'ok'],
      ['read', placed, 'download', payload.length, 'ok'],
    ]);
    expect(rows[1]!.sha256).toBe(shaOf(placed));
    expect(rows[2]!.sha256).toBe(shaOf(back));
    expect(markers[0]).toMatchObject({ type: 'channel', kind: 'sftp' });
    // No file byte in the terminal recording: the cast holds markers and a line or two.
    expect(size).toBeLessThan(8192);

    const moved = path.join(dir, 'moved.bin');
    fs.writeFileSync(batch, [`rename ${placed} ${moved}`, `rm ${moved}`, `rmdir ${dir}`, ''].join('\n'));
    const second = await session(() => run('sftp', [...clientOptions('-P'), '-b', batch, login()]));
    expect(fs.existsSync(dir)).toBe(false);
    const later = await agreed(second.id);
    expect(later.rows.map((r) => [r.op, r.path, r.target, r.outcome])).toEqual([
      ['rename', placed, moved, 'ok'],
      ['remove', moved, null, 'ok'],
      ['rmdir', dir, null, 'ok'],
    ]);
  });

  it('records a refused sftp operation with the host’s answer', async () => {
    const batch = path.join(local, 'batch-refused');
    const missing = path.join(remote, 'no-such-file.bin');
    fs.writeFileSync(batch, `-rm ${missing}\n`);
    const rec = await session(() => run('sftp', [...clientOptions('-P'), '-b', batch, login()]));
    const { rows } = await agreed(rec.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ op: 'remove', path: missing });
    expect(rows[0]!.outcome).toMatch(/no such file/i);
  });

  it('records legacy scp (-O) uploads and downloads, with no file byte in the terminal recording', async () => {
    const payload = randomBytes(3 * 1024 * 1024 + 17);
    const upload = path.join(local, 'legacy.bin');
    fs.writeFileSync(upload, payload);
    const placed = path.join(remote, 'legacy-up.bin');
    const up = await session(() => run('scp', ['-O', '-q', ...clientOptions('-P'), upload, `${login()}:${placed}`]));
    expect(shaOf(placed)).toBe(sha(payload));
    expect(up.kind).toBe('scp');
    expect(up.command).toBe(`scp -t ${placed}`);
    const upRec = await agreed(up.id);
    expect(upRec.rows.map((r) => [r.protocol, r.op, r.path, r.direction, r.bytes, r.sha256, r.outcome])).toEqual([
      ['scp', 'upload', placed, 'upload', payload.length, sha(payload), 'ok'],
    ]);
    // The file's 3 MiB never entered the terminal recording (it once stored them, mangled).
    expect(upRec.size).toBeLessThan(8192);
    expect(
      upRec.events
        .filter((e) => e[1] === 'o' || e[1] === 'i')
        .map((e) => e[2])
        .join(''),
    ).not.toContain(payload.subarray(0, 64).toString('latin1'));

    const back = path.join(local, 'legacy-back.bin');
    const down = await session(() => run('scp', ['-O', '-q', ...clientOptions('-P'), `${login()}:${placed}`, back]));
    expect(shaOf(back)).toBe(sha(payload));
    expect(down.command).toBe(`scp -f ${placed}`);
    const downRec = await agreed(down.id);
    expect(downRec.rows.map((r) => [r.protocol, r.op, r.path, r.direction, r.bytes, r.sha256, r.outcome])).toEqual([
      ['scp', 'download', placed, 'download', payload.length, sha(payload), 'ok'],
    ]);
    expect(downRec.size).toBeLessThan(8192);
  });

  it('records legacy scp -r of a directory, file by file, and a download refused by the host', async () => {
    const tree = path.join(local, 'tree');
    fs.mkdirSync(path.join(tree, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(tree, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(tree, 'sub', 'b.bin'), randomBytes(5000));
    fs.mkdirSync(path.join(remote, 'trees'));
    const rec = await session(() =>
      run('scp', ['-O', '-r', '-q', ...clientOptions('-P'), tree, `${login()}:${path.join(remote, 'trees')}`]),
    );
    const { rows } = await agreed(rec.id);
    const byPath = new Map(rows.map((r) => [r.path, r]));
    for (const file of ['a.txt', 'sub/b.bin']) {
      const there = path.join(remote, 'trees', 'tree', file);
      expect(byPath.get(there)?.sha256).toBe(shaOf(there));
      expect(byPath.get(there)?.sha256).toBe(shaOf(path.join(tree, file)));
    }
    const missing = path.join(remote, 'absent.bin');
    const before = new Set((await recordings()).map((r) => r.id));
    const refused = await run('scp', ['-O', '-q', ...clientOptions('-P'), `${login()}:${missing}`, local]);
    expect(refused.code).not.toBe(0);
    const list = await eventually(recordings, (l) => l.some((r) => !before.has(r.id) && r.ended_on !== null));
    const failed = await agreed(list.find((r) => !before.has(r.id))!.id);
    expect(failed.rows).toHaveLength(1);
    expect(failed.rows[0]).toMatchObject({ op: 'download', path: missing, bytes: 0, sha256: null });
    expect(failed.rows[0]!.outcome).toMatch(/No such file/);
  });

  it('records the default scp (the sftp protocol) both ways', async () => {
    const payload = randomBytes(1_500_000);
    const upload = path.join(local, 'modern.bin');
    fs.writeFileSync(upload, payload);
    const placed = path.join(remote, 'modern-up.bin');
    const up = await session(() => run('scp', ['-q', ...clientOptions('-P'), upload, `${login()}:${placed}`]));
    expect(up.kind).toBe('sftp');
    const upRows = (await agreed(up.id)).rows.filter((r) => r.op === 'write');
    expect(upRows.map((r) => [r.path, r.direction, r.bytes, r.sha256, r.outcome])).toEqual([
      [placed, 'upload', payload.length, shaOf(placed), 'ok'],
    ]);
    expect(upRows[0]!.sha256).toBe(sha(payload));
    const back = path.join(local, 'modern-back.bin');
    const down = await session(() => run('scp', ['-q', ...clientOptions('-P'), `${login()}:${placed}`, back]));
    const downRows = (await agreed(down.id)).rows.filter((r) => r.op === 'read');
    expect(downRows.map((r) => [r.path, r.direction, r.bytes, r.sha256, r.outcome])).toEqual([
      [placed, 'download', payload.length, shaOf(back), 'ok'],
    ]);
  });

  it('records a program that only calls itself scp like a terminal once its stream is not scp', async () => {
    const bin = path.join(local, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'scp'), '#!/bin/sh\necho "not-really-scp-$((6*7))"\n', { mode: 0o755 });
    const command = `${path.join(bin, 'scp')} -t /tmp/whatever`;
    const rec = await session(() =>
      run('ssh', ['-p', String(server.sshPort), '-i', vera.file, ...SSH_CLIENT_OPTIONS, login(), command]),
    );
    expect([rec.kind, rec.command]).toEqual(['scp', command]);
    const { rows, events } = await agreed(rec.id);
    expect(rows.map((r) => [r.op, r.outcome])).toEqual([['unparsable', 'an scp acknowledgement of an unknown kind']]);
    const output = events
      .filter((e) => e[1] === 'o')
      .map((e) => e[2])
      .join('');
    expect(output).toContain('not-really-scp-42');
  });

  it('stores every operation of a burst, in the table as in the recording', async () => {
    const batch = path.join(local, 'batch-burst');
    const base = path.join(remote, 'burst');
    fs.writeFileSync(
      batch,
      [`mkdir ${base}`, ...Array.from({ length: 1200 }, (_, i) => `mkdir ${base}/d${i}`), ''].join('\n'),
    );
    const rec = await session(() => run('sftp', [...clientOptions('-P'), '-b', batch, login()]));
    const { rows } = await agreed(rec.id);
    expect(rows).toHaveLength(1201);
    expect(rows.at(-1)).toMatchObject({ op: 'mkdir', path: `${base}/d1199`, outcome: 'ok' });
  });

  it('lists sessions by kind, and refuses an unknown kind with a message', async () => {
    const scp = await recordings('?kind=scp');
    expect(scp.length).toBeGreaterThan(0);
    expect(scp.every((r) => r.kind === 'scp')).toBe(true);
    const sftp = await recordings('?kind=sftp');
    expect(sftp.length).toBeGreaterThan(0);
    expect(sftp.every((r) => r.kind === 'sftp')).toBe(true);
    const byKind = (await recordings('?sort=kind&order=asc')).map((r) => r.kind ?? '');
    expect(byKind).toEqual([...byKind].sort());
    expect(new Set(byKind).size).toBeGreaterThan(1);
    const bad = await server.call<{ message: string }>('GET', '/api/recording?kind=telnet', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/kind must be one of shell, exec, sftp, scp, forward/);
    const exec = await session(() =>
      run('ssh', ['-p', String(server.sshPort), '-i', vera.file, ...SSH_CLIENT_OPTIONS, login(), 'echo hi']),
    );
    expect([exec.kind, exec.command]).toEqual(['exec', 'echo hi']);
    const { markers } = await cast(exec.id);
    expect(markers[0]).toEqual({ t: markers[0]!.t, type: 'channel', kind: 'exec', command: 'echo hi' });
  });

  it('shows a session’s transfers only to those who may see the session', async () => {
    const [rec] = await recordings('?kind=scp');
    await server.createUser('nosy@example.test', 'password-123', { permissions: ['list-recording'] });
    const nosy = await server.login('nosy@example.test', 'password-123');
    const denied = await server.call<{ message: string }>('GET', `/api/recording/${rec!.id}/transfers`, {
      token: nosy,
    });
    expect(denied.status).toBe(404);
    const unknown = await server.call('GET', `/api/recording/${crypto.randomUUID()}/transfers`, { token: admin });
    expect(unknown.status).toBe(404);
    const bad = await server.call('GET', '/api/recording/not-an-id/transfers', { token: admin });
    expect(bad.status).toBe(400);
  });
});
