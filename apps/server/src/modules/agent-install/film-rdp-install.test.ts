import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../../test/harness.js';
import { fakeSystemctl, run, runPiped, scratch } from './install-rig.js';

/*
 * install.sh --film-rdp / --no-film-rdp under an install root, with the real server and a stand-in
 * systemctl (install-rig.ts: no systemd as PID 1 here). What the drop-in then allows under a real
 * systemd is film-rdp.nspawn.test.ts.
 */

const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('install.sh --film-rdp', () => {
  let server: TestServer;
  let admin: string;
  let script: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    server = await startTestServer('pglite', { publicUrl: undefined });
    admin = await server.login();
    script = (await server.call<string>('GET', '/api/agent/install.sh')).body;
  }, 60_000);

  afterAll(async () => {
    await server.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function newKey(): Promise<string> {
    return (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'film-rdp' } })
    ).body.key;
  }

  function host(): { root: string; env: NodeJS.ProcessEnv; calls: () => string[]; unit: string; dropIn: string } {
    const dir = scratch('gh-filmrdp-install-');
    dirs.push(dir);
    const root = path.join(dir, 'root');
    const systemctl = fakeSystemctl(dir);
    const unit = path.join(root, 'etc/systemd/system/gatehouse-agent.service');
    return {
      root,
      env: { PATH: `${systemctl.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, GATEHOUSE_INSTALL_ROOT: root },
      calls: systemctl.calls,
      unit,
      dropIn: `${unit}.d/film-rdp.conf`,
    };
  }

  it('writes the drop-in, reloads and restarts; again without the flag keeps it; --no-film-rdp removes it', async () => {
    const h = host();
    const first = await runPiped(script, ['--key', await newKey(), '--film-rdp'], h.env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`wrote ${h.dropIn} (--film-rdp)`);
    const dropIn = fs.readFileSync(h.dropIn, 'utf8');
    const lines = dropIn.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines).toEqual([
      '[Service]',
      'User=root',
      'Group=root',
      'PrivateTmp=no',
      'ProtectHome=read-only',
      'CapabilityBoundingSet=',
      'CapabilityBoundingSet=CAP_SYS_PTRACE CAP_DAC_READ_SEARCH CAP_DAC_OVERRIDE',
      'RestrictAddressFamilies=',
      'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK',
      'ProtectProc=default',
      'ProcSubset=all',
    ]);
    expect(fs.statSync(h.dropIn).mode & 0o777).toBe(0o644);
    // The unit itself is unchanged: the drop-in is the only difference.
    expect(fs.readFileSync(h.unit, 'utf8')).toContain('User=gatehouse-agent\n');
    expect(h.calls()).toEqual(['daemon-reload', 'enable --now gatehouse-agent.service']);

    if (systemdAnalyze) {
      // systemd-analyze reads the .d folder beside the unit: the drop-in is verified with it.
      const verified = await run('systemd-analyze', ['verify', '--man=no', h.unit], { PATH: process.env.PATH });
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stderr).not.toMatch(/gatehouse-agent\.service|film-rdp\.conf/);
    } else {
      console.warn('systemd-analyze is not installed here: the drop-in was not verified by systemd (skipped)');
    }

    const again = await runPiped(script, [], h.env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`kept ${h.dropIn}`);
    expect(fs.readFileSync(h.dropIn, 'utf8')).toBe(dropIn);
    expect(h.calls().slice(2)).toEqual([
      'daemon-reload',
      'enable --now gatehouse-agent.service',
      'restart gatehouse-agent.service',
    ]);

    const off = await runPiped(script, ['--no-film-rdp'], h.env);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).toContain(`removed ${h.dropIn} (--no-film-rdp)`);
    expect(fs.existsSync(h.dropIn)).toBe(false);
    expect(fs.existsSync(path.dirname(h.dropIn))).toBe(false);
    expect(h.calls().slice(5)).toEqual([
      'daemon-reload',
      'enable --now gatehouse-agent.service',
      'restart gatehouse-agent.service',
    ]);

    // Without the drop-in, a run without the flag says how to film.
    const plain = await runPiped(script, [], h.env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('RDP sessions to this host are not filmed');
    expect(plain.stderr).toContain('--film-rdp films them');
    expect(fs.existsSync(h.dropIn)).toBe(false);
  }, 60_000);

  it('--no-start writes the drop-in and starts nothing; both flags together are refused before anything', async () => {
    const h = host();
    const both = await runPiped(script, ['--key', await newKey(), '--film-rdp', '--no-film-rdp'], h.env);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--film-rdp and --no-film-rdp together');
    expect(fs.existsSync(h.root)).toBe(false);

    const quiet = await runPiped(script, ['--key', await newKey(), '--film-rdp', '--no-start'], h.env);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(fs.existsSync(h.dropIn)).toBe(true);
    expect(h.calls()).toEqual([]);
  }, 60_000);

  it('says what to install when ffmpeg or ss is missing', async () => {
    const h = host();
    // A PATH with what the script needs (sh, coreutils, curl, node, the stand-in systemctl), and
    // neither ffmpeg nor ss: links in a folder of their own.
    const bin = path.join(path.dirname(h.root), 'bin');
    fs.mkdirSync(bin);
    const tools = ['sh', 'curl', 'sha256sum', 'cut', 'head', 'tr', 'sed', 'mkdir', 'chmod', 'mv', 'rm', 'rmdir'];
    for (const tool of [...tools, 'cat', 'dirname', 'id', 'uname', 'grep']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      if (found) fs.symlinkSync(found, path.join(bin, tool));
    }
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const env = { ...h.env, PATH: `${String(h.env.PATH).split(':')[0]}:${bin}` };
    const ran = await runPiped(script, ['--key', await newKey(), '--film-rdp'], env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain('WARNING: filming needs ffmpeg (Debian/Ubuntu: apt-get install ffmpeg');
    expect(ran.stderr).toContain('ss (Debian/Ubuntu: apt-get install iproute2');
    expect(fs.existsSync(h.dropIn)).toBe(true);
  }, 60_000);
});
