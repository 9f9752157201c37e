import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { WebSocket } from 'ws';
import { type AgentProcess, eventually, startAgent } from './agent-process.js';
import { type TestServer, startTestServer } from './harness.js';
import { findProgram } from '../desktop/desktop-session.js';
import { releaseSegmentsOf } from '../desktop/shared-memory.js';

/**
 * Kills a test's X program with SIGKILL and, once it exited, releases the MIT-SHM segments it can
 * no longer free (x11vnc and freerdp-shadow keep 27 or so each; left behind, a few hundred test
 * runs fill the kernel's table and no x11vnc starts on the machine).
 */
export async function killLeavingNothing(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  if (child.pid !== undefined) releaseSegmentsOf(child.pid);
}

/** The programs the desktop tests run (all real; CI installs them with .ci/run). */
export const DESKTOP_TEST_PROGRAMS = [
  'Xvfb',
  'xfreerdp',
  'x11vnc',
  'xauth',
  'ffmpeg',
  'freerdp-shadow-cli',
  'xsetroot',
  'xdotool',
];

/** The programs missing here (a test run without them fails in CI and is skipped, with the reason, elsewhere). */
export function missingDesktopPrograms(): string[] {
  return DESKTOP_TEST_PROGRAMS.filter((p) => !findProgram(p));
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** An RDP host for tests: a plain X display of one colour served by freerdp-shadow-cli on 127.0.0.1. */
export interface RdpHost {
  display: number;
  port: number;
  /** The host's pointer position (xdotool getmouselocation). */
  pointer(): { x: number; y: number };
  /** Kills its programs, and releases the shared memory they can no longer free themselves. */
  stop(): Promise<void>;
}

export async function startRdpHost(options: {
  width: number;
  height: number;
  colour: string;
  /** PAM login (the shadow server's default): every login of an unknown user is refused. */
  auth?: boolean;
  /** Runs `xterm -e sh -c 'cat > FILE'` on the host, holding its keyboard: the lines typed land in FILE. */
  typedInto?: string;
}): Promise<RdpHost> {
  const children: ChildProcess[] = [];
  let display = 0;
  for (let attempt = 0; ; attempt += 1) {
    display = 200 + Math.floor(Math.random() * 800);
    if (fs.existsSync(`/tmp/.X11-unix/X${display}`) || fs.existsSync(`/tmp/.X${display}-lock`)) continue;
    const xvfb = spawn(
      'Xvfb',
      [`:${display}`, '-screen', '0', `${options.width}x${options.height}x24`, '-nolisten', 'tcp', '-noreset'],
      { stdio: 'ignore' },
    );
    const ready = await new Promise<boolean>((resolve) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (fs.existsSync(`/tmp/.X11-unix/X${display}`)) {
          clearInterval(poll);
          resolve(true);
        } else if (xvfb.exitCode !== null || Date.now() - started > 10_000) {
          clearInterval(poll);
          resolve(false);
        }
      }, 50);
    });
    if (ready) {
      children.push(xvfb);
      break;
    }
    xvfb.kill('SIGKILL');
    if (attempt > 10) throw new Error('no free X display for the test host');
  }
  const env = { ...process.env, DISPLAY: `:${display}` };
  // The socket exists a moment before the server answers: retry until xsetroot succeeds.
  for (let i = 0; ; i += 1) {
    try {
      execFileSync('xsetroot', ['-solid', options.colour], { env, stdio: 'ignore' });
      break;
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (options.typedInto) {
    const file = options.typedInto;
    children.push(
      spawn('xterm', ['-geometry', '80x24+0+0', '-e', 'sh', '-c', 'cat > "$0"', file], { env, stdio: 'ignore' }),
    );
    // No window manager on the host: the xterm gets the keyboard for good, wherever the pointer is.
    const window = execFileSync('xdotool', ['search', '--sync', '--onlyvisible', '--class', 'xterm'], { env })
      .toString()
      .trim()
      .split('\n')[0]!;
    execFileSync('xdotool', ['windowfocus', '--sync', window], { env });
  }
  const port = await freePort();
  const shadow = spawn(
    'freerdp-shadow-cli',
    [`/port:${port}`, '/bind-address:127.0.0.1', ...(options.auth ? [] : ['-auth'])],
    { env, stdio: ['ignore', 'ignore', 'ignore'] },
  );
  children.push(shadow);
  const started = Date.now();
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (shadow.exitCode !== null || Date.now() - started > 15_000) throw new Error('freerdp-shadow-cli did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    display,
    port,
    pointer() {
      const out = execFileSync('xdotool', ['getmouselocation'], { env }).toString();
      return { x: Number(/x:(\d+)/.exec(out)?.[1]), y: Number(/y:(\d+)/.exec(out)?.[1]) };
    },
    async stop() {
      await Promise.all(children.reverse().map(killLeavingNothing));
    },
  };
}

/** A WebSocket client of the desktop endpoints, speaking as much RFB as the tests need. */
export class DesktopClient {
  readonly ws: WebSocket;
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private texts: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  width = 0;
  height = 0;
  /** The sizes the server announced (RFB DesktopSize), in order. */
  readonly sizes: { width: number; height: number }[] = [];

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) this.buffer = Buffer.concat([this.buffer, data]);
      else this.texts.push(data.toString());
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) =>
      this.ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const w of this.waiters.splice(0)) w();
      }),
    );
    this.ws.on('error', () => undefined);
  }

  async opened(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) return;
    await new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('error', reject);
    });
  }

  private async wait(until: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!until()) {
      if (this.ws.readyState === WebSocket.CLOSED) {
        // The server's close code and reason say why (DESKTOP_CLOSE): a flaky failure names its cause.
        const { code, reason } = await this.closed;
        throw new Error(`socket closed (${code} ${JSON.stringify(reason)}) while waiting for ${what}`);
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next text message, parsed. */
  async text(timeoutMs = 60_000): Promise<Record<string, unknown>> {
    await this.wait(() => this.texts.length > 0, timeoutMs, 'a text message').catch(async (error: Error) => {
      if (this.ws.readyState !== WebSocket.CLOSED) throw error;
    });
    const text = this.texts.shift();
    if (text === undefined) {
      const closed = await this.closed;
      return { closed: closed.code, reason: closed.reason };
    }
    return JSON.parse(text) as Record<string, unknown>;
  }

  send(value: unknown): void {
    this.ws.send(JSON.stringify(value));
  }

  private async read(n: number): Promise<Buffer> {
    await this.wait(() => this.buffer.length >= n, 30_000, `${n} RFB bytes`);
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** The RFB 3.8 handshake with security None; answers the desktop's size. */
  async handshake(options: { desktopSize?: boolean } = {}): Promise<{ width: number; height: number }> {
    const version = (await this.read(12)).toString();
    if (!version.startsWith('RFB 003.')) throw new Error(`not RFB: ${version}`);
    this.ws.send(Buffer.from('RFB 003.008\n'));
    const count = (await this.read(1))[0]!;
    const types = [...(await this.read(count))];
    if (!types.includes(1)) throw new Error(`no security None among ${types.join(',')}`);
    this.ws.send(Buffer.from([1]));
    const result = (await this.read(4)).readUInt32BE(0);
    if (result !== 0) throw new Error(`security result ${result}`);
    this.ws.send(Buffer.from([1])); // ClientInit: shared
    const init = await this.read(24);
    this.width = init.readUInt16BE(0);
    this.height = init.readUInt16BE(2);
    await this.read(init.readUInt32BE(20));
    // 32-bit true colour, little-endian, red at bit 16, green 8, blue 0; raw encoding only.
    const format = Buffer.alloc(20);
    format.writeUInt8(0, 0);
    format.writeUInt8(32, 4);
    format.writeUInt8(24, 5);
    format.writeUInt8(0, 6);
    format.writeUInt8(1, 7);
    format.writeUInt16BE(255, 8);
    format.writeUInt16BE(255, 10);
    format.writeUInt16BE(255, 12);
    format.writeUInt8(16, 14);
    format.writeUInt8(8, 15);
    format.writeUInt8(0, 16);
    this.ws.send(format);
    // Raw, and the DesktopSize pseudo-encoding (-223) when asked: the server then tells of new sizes.
    const list = options.desktopSize ? [0, -223] : [0];
    const encodings = Buffer.alloc(4 + 4 * list.length);
    encodings.writeUInt8(2, 0);
    encodings.writeUInt16BE(list.length, 2);
    list.forEach((e, i) => encodings.writeInt32BE(e, 4 + 4 * i));
    this.ws.send(encodings);
    return { width: this.width, height: this.height };
  }

  /** Asks for the whole screen and answers the colour at (x, y) as [r, g, b]. */
  async pixel(x: number, y: number): Promise<[number, number, number]> {
    const ask = () => {
      const request = Buffer.alloc(10);
      request.writeUInt8(3, 0);
      request.writeUInt8(0, 1);
      request.writeUInt16BE(0, 2);
      request.writeUInt16BE(0, 4);
      request.writeUInt16BE(this.width, 6);
      request.writeUInt16BE(this.height, 8);
      this.ws.send(request);
    };
    ask();
    let found: [number, number, number] | undefined;
    while (!found) {
      const type = (await this.read(1))[0];
      if (type === 0) {
        const announced = this.sizes.length;
        const rects = (await this.read(3)).readUInt16BE(1);
        for (let i = 0; i < rects; i += 1) {
          const head = await this.read(12);
          const [rx, ry, w, h] = [
            head.readUInt16BE(0),
            head.readUInt16BE(2),
            head.readUInt16BE(4),
            head.readUInt16BE(6),
          ];
          const encoding = head.readInt32BE(8);
          if (encoding === -223) {
            // DesktopSize: the framebuffer is now w x h; the request is made again at that size.
            this.width = w;
            this.height = h;
            this.sizes.push({ width: w, height: h });
            continue;
          }
          if (encoding !== 0) throw new Error(`unexpected encoding ${encoding}`);
          const data = await this.read(w * h * 4);
          if (x >= rx && x < rx + w && y >= ry && y < ry + h) {
            const at = ((y - ry) * w + (x - rx)) * 4;
            found = [data[at + 2]!, data[at + 1]!, data[at]!];
          }
        }
        // The size changed in this update: ask again for the whole (new) screen.
        if (!found && this.sizes.length > announced) ask();
      } else if (type === 2) {
        // bell
      } else if (type === 3) {
        const length = (await this.read(7)).readUInt32BE(3);
        await this.read(length);
      } else if (type === 1) {
        const head = await this.read(5);
        await this.read(head.readUInt16BE(3) * 6);
      } else {
        throw new Error(`unexpected RFB message ${type}`);
      }
    }
    return found;
  }

  /** A PointerEvent (moves the pointer to x, y). */
  pointer(x: number, y: number): void {
    const message = Buffer.alloc(6);
    message.writeUInt8(5, 0);
    message.writeUInt8(0, 1);
    message.writeUInt16BE(x, 2);
    message.writeUInt16BE(y, 4);
    this.ws.send(message);
  }

  /** A KeyEvent (down then up) for a keysym. */
  key(keysym: number): void {
    for (const down of [1, 0]) {
      const message = Buffer.alloc(8);
      message.writeUInt8(4, 0);
      message.writeUInt8(down, 1);
      message.writeUInt32BE(keysym, 4);
      this.ws.send(message);
    }
  }

  /** The browser's clipboard text as the console sends it: a text frame beside RFB, in UTF-8. */
  clipboard(text: string): void {
    this.send({ clipboard: { text } });
  }

  /**
   * The next clipboard text frame from the gateway (`{clipboard: {text}}`, what the desktop copied,
   * or `{clipboard_refused}`), or undefined when none came within `timeoutMs`. Other text frames
   * are skipped.
   */
  async clipboardFrame(
    timeoutMs: number,
  ): Promise<{ clipboard?: { text: string }; clipboard_refused?: string; code?: string } | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = this.texts.findIndex((t) => t.startsWith('{"clipboard'));
      if (at >= 0) return JSON.parse(this.texts.splice(at, 1)[0]!) as { clipboard?: { text: string } };
      const left = deadline - Date.now();
      if (left <= 0 || this.ws.readyState === WebSocket.CLOSED) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** A ClientCutText: the browser's clipboard text through RFB (Latin-1), which the gateway's x11vnc drops. */
  cutText(text: string): void {
    const body = Buffer.from(text, 'latin1');
    const message = Buffer.alloc(8 + body.length);
    message.writeUInt8(6, 0);
    message.writeUInt32BE(body.length, 4);
    body.copy(message, 8);
    this.ws.send(message);
  }

  /**
   * The next ServerCutText's text, or undefined when none came within `timeoutMs`. Reads only
   * what arrives unasked (no update requested): bells and cut text; anything else is an error.
   */
  async serverCutText(timeoutMs: number): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      try {
        await this.wait(() => this.buffer.length >= 1, left, 'an RFB message');
      } catch (error) {
        if (/timed out/.test((error as Error).message)) return undefined;
        throw error;
      }
      const type = (await this.read(1))[0];
      if (type === 2) continue;
      if (type !== 3) throw new Error(`unexpected RFB message ${type} while waiting for cut text`);
      const length = (await this.read(7)).readUInt32BE(3);
      return (await this.read(length)).toString('latin1');
    }
  }

  close(): void {
    this.ws.close();
  }
}

/** Waits until no desktop program of this process is left (their gateway stopped them all). */
export async function noDesktopsLeft(timeoutMs = 20_000): Promise<void> {
  await eventually(
    async () => desktopChildren().length,
    (n) => n === 0,
    timeoutMs,
  );
}

/** Closes a browser desktop's socket and waits until its desktop programs are gone. */
export async function closeDesktop(client: { close(): void; closed: Promise<unknown> }): Promise<void> {
  client.close();
  await client.closed;
  await noDesktopsLeft();
}

/** The desktop programs running as children of this process now (the server runs in-process in tests). */
export function desktopChildren(exclude: number[] = []): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = /\((.*)\)/.exec(stat)?.[1] ?? '';
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid || exclude.includes(Number(entry))) continue;
      if (!['Xvfb', 'xfreerdp', 'x11vnc', 'ffmpeg'].includes(comm)) continue;
      // A desktop's programs name its private folder in their arguments or environment.
      const marks =
        fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') + fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (marks.includes('gh-desktop-')) out.push({ pid: Number(entry), comm });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Everything a desktop test talks to: a server (its log lines kept), a real agent, an RDP host and an rdp definition. */
export interface DesktopRig {
  server: TestServer;
  host: RdpHost;
  agent: AgentProcess;
  agentId: string;
  definitionId: string;
  admin: string;
  /** The log lines the server wrote. */
  log(): string;
  connectUrl(definitionId?: string): string;
  watchUrl(recordingId: string): string;
  stop(): Promise<void>;
}

export async function startDesktopRig(options: {
  colour: string;
  width: number;
  height: number;
  typedInto?: string;
}): Promise<DesktopRig> {
  let logText = '';
  const server = await startTestServer(
    'pglite',
    { logLevel: 'debug' },
    { logOut: { write: (chunk: string) => (logText += chunk) } },
  );
  const host = await startRdpHost(options);
  const admin = await server.login();
  const key = (
    await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 't', uses: 1 } })
  ).body.key;
  const agent = startAgent({ server: server.url, key, hostname: 'win-01' });
  const list = await eventually(
    async () =>
      (await server.call<{ agents: { id: string; connected: boolean }[] }>('GET', '/api/agent', { token: admin })).body
        .agents,
    (a) => a.some((x) => x.connected),
    30_000,
  );
  const agentId = list[0]!.id;
  await server.call('POST', `/api/agent/${agentId}/config`, {
    token: admin,
    body: { whitelist: [host.port], recording_fps: 5 },
  });
  const created = await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/rdp', {
    token: admin,
    body: { name: 'win desktop', host_id: agentId, port: host.port },
  });
  if (!created.body.definition) throw new Error(`definition not created: ${JSON.stringify(created.body)}`);
  const definitionId = created.body.definition.id;
  const ws = server.url.replace(/^http/, 'ws');
  return {
    server,
    host,
    agent,
    agentId,
    definitionId,
    admin,
    log: () => logText,
    connectUrl: (id = definitionId) => `${ws}/api/desktop/connect?definition=${id}`,
    watchUrl: (id) => `${ws}/api/desktop/watch?recording=${id}`,
    async stop() {
      agent.child.kill('SIGKILL');
      await server.stop();
      await host.stop();
    },
  };
}

/** Opens a desktop as the browser does; answers the client and the server's first text answer. */
export async function openDesktop(
  url: string,
  hello: Record<string, unknown>,
): Promise<{ client: DesktopClient; answer: Record<string, unknown> }> {
  const client = new DesktopClient(url);
  await client.opened();
  client.send(hello);
  return { client, answer: await client.text() };
}
