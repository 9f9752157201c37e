import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's rsyslog puts the daemon. */
export const RSYSLOGD = '/usr/sbin/rsyslogd';

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A running rsyslogd of the test's own: a config, a port on 127.0.0.1 and the file it writes. */
export interface Rsyslog {
  port: number;
  /** PEM of the certificate the TLS listener presents (self-signed, for 127.0.0.1 and localhost). */
  ca: string;
  /** The lines received so far: `pri|app-name|msgid|structured-data|msg` per message. */
  lines(): string[];
  stop(): Promise<void>;
}

/**
 * Starts Debian's rsyslogd as its own instance (own config, work folder, pid file; nothing of the
 * system's) listening on a free loopback port with imtcp, plainly or over TLS (gtls driver,
 * rsyslog-gnutls). Control characters are not escaped on reception, so a line break that reached
 * it inside a message would show as a line of its own.
 */
export async function startRsyslog(options: { tls: boolean }): Promise<Rsyslog> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-rsyslog-'));
  const port = await freePort();
  const out = path.join(dir, 'received.log');
  let ca = '';
  let tlsGlobals = '';
  let tlsModule = '';
  if (options.tls) {
    await run(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { cwd: dir },
    );
    ca = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    tlsGlobals =
      ` defaultNetstreamDriver="gtls" defaultNetstreamDriverCAFile="${dir}/cert.pem"` +
      ` defaultNetstreamDriverCertFile="${dir}/cert.pem" defaultNetstreamDriverKeyFile="${dir}/key.pem"`;
    tlsModule = ' streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon"';
  }
  fs.writeFileSync(
    path.join(dir, 'rsyslog.conf'),
    [
      `global(workDirectory="${dir}" parser.escapeControlCharactersOnReceive="off"${tlsGlobals})`,
      `module(load="imtcp"${tlsModule})`,
      `input(type="imtcp" address="127.0.0.1" port="${port}")`,
      'template(name="fields" type="string" string="%pri%|%app-name%|%msgid%|%structured-data%|%msg%\\n")',
      `action(type="omfile" file="${out}" template="fields")`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    RSYSLOGD,
    ['-n', '-f', path.join(dir, 'rsyslog.conf'), '-i', path.join(dir, 'rsyslogd.pid')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Listening once a connection is accepted.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`rsyslogd did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    ca,
    lines: () => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8').split('\n').slice(0, -1) : []),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
