import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentProcess } from '../test/agent-process.js';
import { enrolGatewayHost } from '../test/gateway-host.js';
import { type TestServer, startTestServer } from '../test/harness.js';
import { type Sshd, startSshd, userKey } from '../test/sshd.js';
import { codeFor, enrolTotp, forgetLastStep } from '../test/two-factor.js';

/**
 * The real OpenSSH client signing in with a password and then the authenticator app's code
 * (keyboard-interactive after partial success). Its prompts are answered by an SSH_ASKPASS script
 * that reads the password or the code from files the test writes, and logs every prompt it saw.
 */
describe('the SSH gateway asks for the authenticator code after the password', () => {
  let server: TestServer;
  let sshd: Sshd;
  let agent: AgentProcess;
  let secret: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-2fa-'));
  const askpass = path.join(dir, 'askpass.sh');
  const prompts = path.join(dir, 'prompts.log');

  beforeAll(async () => {
    server = await startTestServer('pglite');
    const admin = await server.login();
    sshd = await startSshd();
    const key = userKey(dir, 'tia');
    ({ agent } = await enrolGatewayHost(server, admin, sshd, {
      hostname: 'web-01',
      definition: 'web-01 shell',
      user: { email: 'tia@example.test', password: 'tia-password-12', publicKey: key.publicKey },
    }));
    ({ secret } = await enrolTotp(server, await server.login('tia@example.test', 'tia-password-12')));
    fs.writeFileSync(path.join(dir, 'password'), 'tia-password-12\n');
    fs.writeFileSync(
      askpass,
      `#!/bin/sh\nprintf '%s\\n' "$1" >> '${prompts}'\ncase "$1" in *verification*) cat '${dir}/code';; *) cat '${dir}/password';; esac\n`,
      { mode: 0o700 },
    );
  }, 90_000);
  afterAll(async () => {
    agent?.child.kill();
    sshd?.stop();
    await server?.stop();
  });

  /** ssh with password and keyboard-interactive only, every prompt through the askpass script. */
  const sshWithCode = (code: string) => {
    fs.writeFileSync(path.join(dir, 'code'), `${code}\n`);
    fs.writeFileSync(prompts, '');
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        'ssh',
        [
          '-o',
          'StrictHostKeyChecking=no',
          '-o',
          'UserKnownHostsFile=/dev/null',
          '-o',
          'LogLevel=ERROR',
          '-o',
          'PubkeyAuthentication=no',
          '-o',
          'PreferredAuthentications=password,keyboard-interactive',
          '-o',
          'NumberOfPasswordPrompts=1',
          '-p',
          String(server.sshPort),
          'tia@example.test@web-01@127.0.0.1',
          'echo two-factor-ok',
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' },
          detached: true, // no controlling terminal: ssh must use the askpass script
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('exit', (exit) => {
        clearTimeout(timer);
        resolve({ code: exit, stdout, stderr });
      });
    });
  };

  it('admits the password and a right code, asking for the code at a prompt of its own', async () => {
    await forgetLastStep(server, 'tia@example.test');
    const res = await sshWithCode(codeFor(secret));
    expect(res.stdout).toContain('two-factor-ok');
    expect(res.code).toBe(0);
    const seen = fs.readFileSync(prompts, 'utf8');
    expect(seen).toMatch(/password/);
    expect(seen).toContain('Gatehouse verification code:');
    const audit = await server.services.database.query<{ detail: { method?: string } }>(
      `SELECT detail FROM audit_log WHERE action = 'gateway.login' AND outcome = 'success' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit[0]?.detail.method).toBe('password+totp');
  }, 40_000);

  it('refuses the right password with a wrong code, and the same code twice', async () => {
    const wrong = await sshWithCode('000000');
    expect(wrong.code).toBe(255);
    expect(wrong.stdout).not.toContain('two-factor-ok');
    expect(fs.readFileSync(prompts, 'utf8')).toContain('Gatehouse verification code:');
    await forgetLastStep(server, 'tia@example.test');
    const code = codeFor(secret);
    expect((await sshWithCode(code)).code).toBe(0);
    const replayed = await sshWithCode(code);
    expect(replayed.code).toBe(255);
    expect(replayed.stdout).not.toContain('two-factor-ok');
  }, 60_000);
});
