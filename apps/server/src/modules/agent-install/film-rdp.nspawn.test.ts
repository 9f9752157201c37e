import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../../test/harness.js';
import { run } from './install-rig.js';

/*
 * Property: `install.sh --film-rdp` gives the agent's service exactly what filming xrdp sessions
 * needs, under a real systemd as PID 1, and `--no-film-rdp` takes it back. This machine's systemd is
 * not PID 1, so apps/agent/scripts/film-rdp-check.sh boots this root file system under an overlay
 * with systemd-nspawn -b and runs the one-line install inside against this real server (see the
 * script for each step), and undoes each line of the drop-in in turn to show what it is for. Its
 * X server of another user is first Xvfb with an -auth file (a stand-in: the same socket, /proc
 * entries and 0600 authority file as the Xorg xrdp-sesman starts), then, where xrdp, xrdp-sesman
 * and xfreerdp are installed, real xrdp in the container: a real xfreerdp login, followed to its
 * session by the agent's own lookup (xrdp-session.js) running as the unit, and filmed.
 *
 * Needs root and systemd-nspawn (apt-get install systemd-container); skipped, saying so, otherwise.
 */

const script = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../agent/scripts/film-rdp-check.sh',
);
const why =
  process.getuid?.() !== 0
    ? 'it needs root'
    : spawnSync('sh', ['-c', 'command -v systemd-nspawn']).status !== 0
      ? 'systemd-nspawn is not installed (apt-get install systemd-container)'
      : !fs.existsSync('/lib/systemd/systemd')
        ? 'systemd is not installed'
        : '';
const hasXrdp = ['xrdp', 'xrdp-sesman', 'xfreerdp'].every(
  (p) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0,
);
if (why) console.warn(`film-rdp check under systemd-nspawn skipped: ${why}`);

describe.skipIf(why !== '')('install.sh --film-rdp under a real systemd (systemd-nspawn)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('pglite', { publicUrl: undefined });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('the unit with film-rdp.conf can follow another user’s X session and film it; without it, it cannot', async () => {
    const admin = await server.login();
    const key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'film-rdp' } })
    ).body.key;
    const ran = await run('sh', [script, server.url, key, admin], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
    const said = `${ran.stdout}\n${ran.stderr}`;
    console.log(ran.stdout); // what was checked, step by step, with the probe's findings
    expect(ran.code, said).toBe(0);
    expect(ran.stdout).toContain('film-rdp check: PASS');
    expect(ran.stdout).toMatch(/connected after \d+s \(installed with --film-rdp, running as root\)/);
    expect(ran.stdout).toContain('CapabilityBoundingSet=cap_dac_override cap_dac_read_search cap_sys_ptrace');
    expect(ran.stdout).toContain('systemd-analyze verify: passed');
    // Each line of the drop-in, undone alone, takes away what it is there for (the script asserts which).
    for (const line of ['CAP_SYS_PTRACE', 'CAP_DAC_OVERRIDE', 'AF_NETLINK', 'PrivateTmp=no', 'ProtectHome=read-only']) {
      expect(ran.stdout).toMatch(new RegExp(`without ${line}: .*FAILS|without ${line}: .*ss peers 0`));
    }
    if (hasXrdp) {
      expect(ran.stdout).toMatch(/xrdp: session of alice found on :\d+ and filmed: green/);
    }
    expect(ran.stdout).toContain('control: without film-rdp.conf the same probe could do none of it');
    expect(said).not.toContain(key);
  }, 300_000);
});
