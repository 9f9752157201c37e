import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { type RunningServer, startServer } from '../server.js';
import { ADMIN, DATABASES, openTestDatabase, testConfig } from '../test/harness.js';
import { type SignedManifest, keyFingerprint, signManifest } from './chain.js';

const VERIFY_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/verify-recording.js');

const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
  key.export({ type: 'pkcs8', format: 'pem' }).toString();
const ed25519 = () => generateKeyPairSync('ed25519');
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-signing-key-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** A file in the test's folder holding `text`. */
function file(name: string, text: string): string {
  const at = path.join(folder, name);
  fs.writeFileSync(at, text, { mode: 0o600 });
  return at;
}

/** The configuration error the environment gives, or undefined. */
function refusal(env: Record<string, string>): string | undefined {
  try {
    loadConfig({ GATEHOUSE_DATA_DIR: path.join(folder, 'data'), ...env });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('the recording signing key given by GATEHOUSE_RECORDING_KEY or GATEHOUSE_RECORDING_KEY_FILE', () => {
  it('refuses to start with a key that is not an Ed25519 private key, or cannot be read, saying why', () => {
    const rsa = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const ec = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const pair = ed25519();
    const encrypted = pair.privateKey
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' })
      .toString();
    const publicOnly = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(refusal({ GATEHOUSE_RECORDING_KEY_FILE: file('rsa.pem', rsa) })).toMatch(
      /GATEHOUSE_RECORDING_KEY_FILE \(.*rsa\.pem\) is a rsa key, not Ed25519; make one with: openssl genpkey -algorithm ed25519/,
    );
    expect(refusal({ GATEHOUSE_RECORDING_KEY: ec })).toMatch(/GATEHOUSE_RECORDING_KEY is a ec key, not Ed25519/);
    expect(refusal({ GATEHOUSE_RECORDING_KEY_FILE: path.join(folder, 'missing.pem') })).toMatch(
      /GATEHOUSE_RECORDING_KEY_FILE: .*missing\.pem cannot be read \(ENOENT\)/,
    );
    expect(refusal({ GATEHOUSE_RECORDING_KEY_FILE: file('garbage.pem', 'not a key') })).toMatch(
      /is not a PEM private key \(PKCS#8/,
    );
    expect(refusal({ GATEHOUSE_RECORDING_KEY_FILE: file('public.pem', publicOnly) })).toMatch(/not a PEM private key/);
    expect(refusal({ GATEHOUSE_RECORDING_KEY_FILE: file('encrypted.pem', encrypted) })).toMatch(
      /is encrypted: give the key without a passphrase/,
    );
    expect(
      refusal({ GATEHOUSE_RECORDING_KEY: pem(pair.privateKey), GATEHOUSE_RECORDING_KEY_FILE: file('k.pem', 'x') }),
    ).toMatch(/both set: set only one/);
  });

  it('reads an Ed25519 key from the variable (line breaks written as \\n too) or the file', () => {
    const pair = ed25519();
    const text = pem(pair.privateKey);
    const oneLine = loadConfig({ GATEHOUSE_RECORDING_KEY: text.replace(/\n/g, '\\n') }).recordingKey;
    expect(oneLine).toMatchObject({ source: 'environment', inDataFolder: false });
    expect(keyFingerprint(oneLine!.pem)).toBe(keyFingerprint(pair.publicKey));
    const fromFile = loadConfig({
      GATEHOUSE_DATA_DIR: path.join(folder, 'data'),
      GATEHOUSE_RECORDING_KEY_FILE: file('good.pem', text),
    }).recordingKey;
    expect(fromFile).toMatchObject({ source: 'file', file: path.join(folder, 'good.pem'), inDataFolder: false });
    // A key file inside the data folder is no better than the sealed key: still flagged.
    fs.mkdirSync(path.join(folder, 'data'), { recursive: true });
    const inside = loadConfig({
      GATEHOUSE_DATA_DIR: path.join(folder, 'data'),
      GATEHOUSE_RECORDING_KEY_FILE: file('data/key.pem', text),
    }).recordingKey;
    expect(inside).toMatchObject({ source: 'file', inDataFolder: true });
    expect(loadConfig({}).recordingKey).toBeUndefined();
  });
});

/** The built `npm run verify-recording` on a file. */
function verifyCommand(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [VERIFY_CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
    );
  });
}

// One installation, started first with the key sealed in its data folder, then again with a key
// given in the environment: the fingerprint is the given key's, earlier recordings still verify,
// and a manifest signed with any key but the installation's (or with the old one after it was
// replaced) is not intact.
describe.each(DATABASES)('an installation whose signing key is given, on %s', (kind) => {
  const given = ed25519();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-signing-data-'));
  const secretKey = randomBytes(32).toString('hex');
  let database: Database;
  let drop: () => Promise<void>;
  let server: RunningServer | undefined;
  let token: string;
  let agentId: string;
  let before: { id: string; file: string; fingerprint: string };

  const call = async <T>(method: string, route: string, as = token) => {
    const res = await fetch(`${server!.url}${route}`, { method, headers: { 'authentication-token': as } });
    return { status: res.status, body: (await res.json()) as T };
  };
  const login = async (email: string = ADMIN.email, password: string = ADMIN.password) => {
    const res = await fetch(`${server!.url}/api/login?include_auth_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return ((await res.json()) as { response: { user: { authentication_token: string } } }).response.user
      .authentication_token;
  };
  const start = async (env: Record<string, string>) => {
    const { recordingKey } = loadConfig(env);
    server = await startServer(testConfig({ dataDir, secretKey, recordingKey }), { database });
    token = await login();
  };
  const record = async () => {
    const live = await server!.services.recordings.start({
      type: 'ssh',
      agentId,
      hostname: 'vault-01',
      userId: null,
      userEmail: ADMIN.email,
      definitionId: null as unknown as string,
      definitionName: 'vault',
      width: 80,
      height: 24,
    });
    live.recorder.output(Buffer.from('$ vault operator unseal\r\n'));
    const manifest = (await server!.services.recordings.finish(live, 'closed'))!;
    return { id: live.id, file: live.row.storagePath, manifest };
  };
  const verify = (id: string) => call<{ status: string; message: string }>('GET', `/api/recording/${id}/verify`);
  const setManifest = (id: string, manifest: SignedManifest) =>
    server!.services.database.query('UPDATE recordings SET manifest = $2 WHERE id = $1', [
      id,
      JSON.stringify(manifest),
    ]);

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase(kind));
    await start({});
    agentId = await server!.services.repositories.agents.create({
      hostname: 'vault-01',
      os: 1,
      version: '2.0.0',
      credentialHash: crypto.randomUUID(),
      config: null,
      registeredWith: crypto.randomUUID(),
    });
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('without a key given, signs with the key kept with the data and says so', async () => {
    const key = await call<{ fingerprint: string; source: string; with_data: boolean; earlier_keys: unknown[] }>(
      'GET',
      '/api/signing-key',
    );
    const sealed = fs.readFileSync(path.join(dataDir, 'recording-signing.pub'), 'utf8');
    expect(key).toEqual({
      status: 200,
      body: expect.objectContaining({
        fingerprint: keyFingerprint(sealed),
        source: 'data-folder',
        with_data: true,
        earlier_keys: [],
      }) as unknown,
    });
    const { id, file, manifest } = await record();
    expect(keyFingerprint(manifest.public_key)).toBe(key.body.fingerprint);
    before = { id, file, fingerprint: key.body.fingerprint };
    expect((await verify(id)).body.status).toBe('intact');
  });

  it('started with the key from the environment: its fingerprint, and earlier recordings still verify', async () => {
    await server!.close();
    await start({ GATEHOUSE_RECORDING_KEY: pem(given.privateKey) });
    const key = await call<{
      fingerprint: string;
      public_key: string;
      source: string;
      with_data: boolean;
      earlier_keys: { fingerprint: string; retired_at: string }[];
    }>('GET', '/api/signing-key');
    expect(key.body).toMatchObject({
      fingerprint: keyFingerprint(given.publicKey),
      source: 'environment',
      with_data: false,
      earlier_keys: [{ fingerprint: before.fingerprint, retired_at: expect.any(String) as unknown }],
    });
    expect(keyFingerprint(key.body.public_key)).toBe(keyFingerprint(given.publicKey));
    expect((await server!.services.gatewayKeys.keys()).signingFingerprint).toBe(keyFingerprint(given.publicKey));
    // The recording signed with the earlier key still verifies; a new one is signed with the given key.
    expect((await verify(before.id)).body.status).toBe('intact');
    const now = await record();
    expect(keyFingerprint(now.manifest.public_key)).toBe(keyFingerprint(given.publicKey));
    expect((await verify(now.id)).body.status).toBe('intact');

    // The command trusts only the key it is given.
    const fingerprint = keyFingerprint(given.publicKey);
    expect(await verifyCommand([now.file, '--key', fingerprint])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`signed with ${fingerprint}`) as unknown,
    });
    expect(await verifyCommand([before.file, '--key', fingerprint])).toMatchObject({
      code: 1,
      stdout: `TAMPERED:\n  - the manifest is signed with ${before.fingerprint}, not with ${fingerprint}\n`,
    });
    const pub = file('given.pub', given.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect((await verifyCommand([now.file, '--key', pub])).code).toBe(0);
    const missing = await verifyCommand([now.file]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Pass --key with the recording signing key’s fingerprint/);
    expect(missing.stderr).toMatch(/does not trust the data folder’s recording-signing\.pub/);
    expect((await verifyCommand([now.file, '--key', 'SHA256:nope'])).stderr).toMatch(/neither a fingerprint/);
  });

  it('calls a manifest signed with another key, or re-signed with the replaced key, not intact', async () => {
    // The check allows one second between a key's retirement and the end of a recording it signed
    // (signing-keys.ts): this recording ends after that second, as any later one would.
    const retiredAt = (
      await call<{ earlier_keys: { retired_at: string }[] }>('GET', '/api/signing-key')
    ).body.earlier_keys.map((k) => Date.parse(k.retired_at));
    const wait = Math.max(...retiredAt) + 1100 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const now = await record();
    const { signature: _s, public_key: _p, ...body } = now.manifest;
    // Whoever holds the data folder opens the sealed key (secret.key is there) and re-signs.
    const sealed = server!.services.box.open(
      ((await server!.services.repositories.settings.get('gateway-keys')) as { signing_key_sealed: string })
        .signing_key_sealed,
    );
    await setManifest(now.id, signManifest(body, sealed));
    const retired = (await verify(now.id)).body;
    expect(retired.status).toBe('tampered');
    expect(retired.message).toContain(`the manifest is signed with ${before.fingerprint}, a key retired on`);
    const stranger = pem(ed25519().privateKey);
    await setManifest(now.id, signManifest(body, stranger));
    const unknown = (await verify(now.id)).body;
    expect(unknown).toMatchObject({ status: 'tampered' });
    expect(unknown.message).toContain(
      `the manifest is signed with ${keyFingerprint(stranger)}, a key this server never`,
    );
    expect(unknown.message).toContain('the manifest’s signature does not match the server’s key');
    await setManifest(now.id, now.manifest);
    expect((await verify(now.id)).body.status).toBe('intact');
  });

  it('shows the key to holders of list-recording or manage-settings only', async () => {
    const users = server!.services;
    const password = 'a-long-enough-password';
    for (const [email, permissions] of [
      ['auditor@example.test', ['list-recording']],
      ['settings@example.test', ['manage-settings']],
      ['nobody@example.test', ['list-agent']],
    ] as const) {
      await users.repositories.roles.ensure(`role-${email}`, [...permissions], false);
      await users.usersService.create({ email, name: null, password }, ['user', `role-${email}`]);
    }
    expect((await call('GET', '/api/signing-key', await login('auditor@example.test', password))).status).toBe(200);
    expect((await call('GET', '/api/signing-key', await login('settings@example.test', password))).status).toBe(200);
    expect((await call('GET', '/api/signing-key', await login('nobody@example.test', password))).status).toBe(403);
  });
});
