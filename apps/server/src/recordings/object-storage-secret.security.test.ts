import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import type S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { type TestServer, startTestServer } from '../test/harness.js';
import { startS3Server } from '../test/s3-server.js';
import { objectStorageFromEnv } from './object-store.js';

const SECRET = 'never-log-me-Zq8vR2kW9pL4xT7m';

// The object storage's secret access key is a credential: no log line, API answer, configuration
// error or serialised configuration may carry it, also when the storage refuses it.
describe('the object storage secret is never shown', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-s3-secret-'));
  let s3: S3rver;
  let port: number;
  let server: TestServer;
  let logged = '';
  const write = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    ({ server: s3, port } = await startS3Server(dir, { buckets: ['gatehouse-secret'] }));
    // Every line the server logs, debug included.
    process.stdout.write = (chunk: string | Uint8Array, ...rest: never[]) => {
      logged += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return write(chunk, ...rest);
    };
    server = await startTestServer('pglite', {
      logLevel: 'debug',
      // A bucket the storage does not have: every request, each signed with the secret, is refused.
      objectStorage: objectStorageFromEnv({
        GATEHOUSE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
        GATEHOUSE_S3_BUCKET: 'gatehouse-missing',
        GATEHOUSE_S3_ACCESS_KEY_ID: 'S3RVER',
        GATEHOUSE_S3_SECRET_ACCESS_KEY: SECRET,
        GATEHOUSE_S3_FORCE_PATH_STYLE: 'true',
      }),
    });
  }, 30_000);
  afterAll(async () => {
    process.stdout.write = write;
    await server?.stop();
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is in no configuration error and no serialised configuration', () => {
    const env = {
      GATEHOUSE_S3_BUCKET: 'gatehouse-secret',
      GATEHOUSE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      GATEHOUSE_S3_SECRET_ACCESS_KEY: SECRET,
    };
    const config = loadConfig(env);
    expect(config.objectStorage?.secretAccessKey).toBe(SECRET);
    expect(JSON.stringify(config)).not.toContain(SECRET);
    expect(inspect(config, { depth: 5 })).not.toContain(SECRET);
    expect(JSON.stringify({ ...config.objectStorage })).not.toContain(SECRET);
    for (const bad of [
      { ...env, GATEHOUSE_S3_ENDPOINT: `ftp://${SECRET}` },
      { ...env, GATEHOUSE_S3_BUCKET: undefined },
      { ...env, GATEHOUSE_S3_SECRET_ACCESS_KEY: `${SECRET}${'x'.repeat(1100)}` },
      { ...env, GATEHOUSE_S3_FORCE_PATH_STYLE: SECRET },
    ]) {
      let message = '';
      try {
        loadConfig(bad);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/GATEHOUSE_S3_/);
      expect(message).not.toContain(SECRET);
    }
  });

  it('is in no log line nor API answer while every upload is refused', async () => {
    const agentId = await server.services.repositories.agents.create({
      hostname: 'db-01',
      os: 1,
      version: '2.0.0',
      credentialHash: crypto.randomUUID(),
      config: null,
      registeredWith: crypto.randomUUID(),
    });
    const live = await server.services.recordings.start({
      type: 'ssh',
      agentId,
      hostname: 'db-01',
      userId: null,
      userEmail: 'mallory@example.test',
      definitionId: null as unknown as string,
      definitionName: 'db shell',
      width: 80,
      height: 24,
    });
    live.recorder.output(Buffer.from('$ echo hello\r\n'));
    await live.recorder.flush();
    await server.services.recordingObjects!.tick();
    await server.services.recordings.finish(live, 'closed');
    expect(await server.services.recordingObjects!.finalize(live.id)).toBe(false);
    // Refused, so the recording stays local and whole: nothing lost.
    const row = (await server.services.repositories.recordings.find(live.id))!;
    expect(row.storage).toBe('local');
    expect(fs.readFileSync(row.storagePath, 'utf8')).toContain('echo hello');
    const admin = await server.login();
    const answers: string[] = [];
    for (const url of [
      '/api/health',
      '/api/health/ready',
      '/api/metadata',
      '/api/settings',
      '/api/settings/public',
      '/api/pods',
      `/api/recording/${live.id}/data`,
      `/api/recording/${live.id}/verify`,
      `/api/recording/${live.id}/cast`,
      '/api/recording',
      '/api/audit',
    ]) {
      const res = await fetch(`${server.url}${url}`, { headers: { 'authentication-token': admin } });
      answers.push(`${url} ${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
    }
    expect(answers.join('\n')).not.toContain(SECRET);
    expect(logged).toMatch(/object storage: (segments|final objects) not uploaded/);
    expect(logged).not.toContain(SECRET);
  }, 30_000);
});
