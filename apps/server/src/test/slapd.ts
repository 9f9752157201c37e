import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A real OpenLDAP slapd (Debian's package) on loopback with its own database, for directory sign-in tests. */
export interface Slapd {
  url: string;
  host: string;
  baseDn: string;
  adminDn: string;
  adminPassword: string;
  /** Adds entries (LDIF) as the directory's administrator. */
  add(ldif: string): Promise<void>;
  stop(): void;
}

export const SLAPD = '/usr/sbin/slapd';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Starts slapd with an mdb database for dc=example,dc=test and its base entries. */
export async function startSlapd(): Promise<Slapd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-slapd-'));
  fs.mkdirSync(path.join(dir, 'db'));
  const baseDn = 'dc=example,dc=test';
  const adminDn = `cn=admin,${baseDn}`;
  const adminPassword = 'directory-admin-password';
  fs.writeFileSync(
    path.join(dir, 'slapd.conf'),
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      'database mdb',
      `suffix "${baseDn}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${path.join(dir, 'db')}`,
      'maxsize 10485760',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(SLAPD, ['-f', path.join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 15_000;
  while (!(await reachable(port))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('slapd did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const add = async (ldif: string) => {
    const file = path.join(dir, `add-${Date.now()}-${Math.random().toString(16).slice(2)}.ldif`);
    fs.writeFileSync(file, ldif);
    await run('ldapadd', ['-x', '-H', url, '-D', adminDn, '-w', adminPassword, '-f', file]);
  };
  await add(
    [
      `dn: ${baseDn}`,
      'objectClass: dcObject',
      'objectClass: organization',
      'o: Example',
      'dc: example',
      '',
      `dn: ou=people,${baseDn}`,
      'objectClass: organizationalUnit',
      'ou: people',
      '',
      `dn: ou=groups,${baseDn}`,
      'objectClass: organizationalUnit',
      'ou: groups',
      '',
    ].join('\n'),
  );
  return {
    url,
    host: `127.0.0.1:${port}`,
    baseDn,
    adminDn,
    adminPassword,
    add,
    stop() {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
