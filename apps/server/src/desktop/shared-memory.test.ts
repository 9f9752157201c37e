import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/agent-process.js';
import { findProgram, run } from './desktop-session.js';
import { segmentsCreatedBy } from './shared-memory.js';

const missing = ['Xvfb', 'x11vnc', 'xauth', 'ipcrm'].filter((p) => !findProgram(p));
// CI installs them: there the test must run, never skip.
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`shared memory tests skipped (${missing.join(', ')} missing); CI runs them`);

describe('segmentsCreatedBy reads Linux’s table of System V segments', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-shm-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const me = process.getuid!();

  it('answers the segments the process created as this user, and none from another creator or user', () => {
    const table = path.join(dir, 'shm');
    const header =
      '       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime                   rss                  swap';
    const row = (id: number, cpid: number, cuid: number) =>
      `         0     ${id}   600                 90112 ${cpid} 10289      0     0     0     ${cuid}     0     0 1795880170 1795880171 0 0`;
    fs.writeFileSync(
      table,
      [header, row(11, 4242, me), row(12, 4242, me), row(13, 4343, me), row(14, 4242, me + 1)].join('\n') + '\n',
    );
    expect(segmentsCreatedBy(4242, table)).toEqual([11, 12]);
    expect(segmentsCreatedBy(5000, table)).toEqual([]);
    expect(segmentsCreatedBy(4242, path.join(dir, 'absent'))).toEqual([]);
    fs.writeFileSync(table, 'not a table\n');
    expect(segmentsCreatedBy(4242, table)).toEqual([]);
  });
});

// x11vnc shares its picture with the X server in MIT-SHM segments and frees them only in its own
// exit path: killed with SIGKILL it left 27 for good, and 152 such kills filled the kernel's 4,096.
describe.skipIf(skip)('a desktop program killed by a signal leaves no shared memory behind', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-shm-x-'));
  const auth = path.join(dir, 'auth');
  const display = 600 + Math.floor(Math.random() * 90);
  const xvfb = (() => {
    execFileSync('xauth', ['-f', auth, 'add', `:${display}`, '.', randomBytes(16).toString('hex')]);
    return spawn('Xvfb', [`:${display}`, '-screen', '0', '640x480x24', '-nolisten', 'tcp', '-auth', auth], {
      stdio: 'ignore',
    });
  })();
  afterAll(() => {
    xvfb.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an x11vnc killed with SIGKILL has its segments released, and they are gone once the X server lets go', async () => {
    expect(missing, 'programs the test needs').toEqual([]);
    const socket = path.join(dir, 'vnc.sock');
    const env = { PATH: process.env.PATH, XAUTHORITY: auth };
    let x11vnc = run('x11vnc', ['-display', `:${display}`, '-unixsock', socket, '-rfbport', '0'], env);
    // Xvfb may still be starting: x11vnc then exits at once, and is started again.
    await eventually(
      async () => {
        if (x11vnc.process.exitCode !== null) {
          await x11vnc.exited;
          x11vnc = run('x11vnc', ['-display', `:${display}`, '-unixsock', socket, '-rfbport', '0'], env);
        }
        return fs.existsSync(socket);
      },
      Boolean,
      20_000,
    );
    const pid = x11vnc.process.pid!;
    await eventually(
      async () => segmentsCreatedBy(pid).length,
      (n) => n > 0,
      10_000,
    );
    x11vnc.process.kill('SIGKILL');
    expect(await x11vnc.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The X server held them attached: marked for removal, they go as it exits.
    xvfb.kill('SIGKILL');
    await new Promise((r) => xvfb.once('exit', r));
    await eventually(
      async () => segmentsCreatedBy(pid),
      (ids) => ids.length === 0,
      10_000,
    );
  });
});
