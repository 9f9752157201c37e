import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TUNNEL_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../agent/dist/tunnel-cli.js');

/** Why the video tests cannot run here (Debian's xvfb and ffmpeg packages), or undefined. */
export function videoToolsMissing(): string | undefined {
  if (!fs.existsSync('/usr/bin/Xvfb')) return '/usr/bin/Xvfb is missing (apt-get install xvfb)';
  for (const tool of ['ffmpeg', 'ffprobe']) {
    if (spawnSync(tool, ['-version']).status !== 0) return `${tool} is missing (apt-get install ffmpeg)`;
  }
  return undefined;
}

/** An Xvfb display on a free number, with its colour changing four times a second so the video moves. */
export async function startXvfb(): Promise<{ display: string; stop: () => void }> {
  // -displayfd: Xvfb picks a free display number itself and writes it on that descriptor.
  const xvfb = spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-screen', '0', '640x480x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => {
      text += c.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  const colours = ['red', 'green', 'blue', 'yellow', 'white', 'black'];
  let n = 0;
  const painter = setInterval(() => {
    n += 1;
    // xsetroot comes with x11-xserver-utils; without it the screen stays black, which still records.
    const child = spawn('xsetroot', ['-solid', colours[n % colours.length]!], {
      env: { ...process.env, DISPLAY: display },
      stdio: 'ignore',
    });
    child.on('error', () => undefined);
  }, 250);
  return {
    display,
    stop: () => {
      clearInterval(painter);
      xvfb.kill('SIGKILL');
    },
  };
}

/** What ffprobe reads of a video file: its duration and first stream (codec, size). */
export function ffprobe(file: string): Promise<{ duration: number; codec: string; width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const args = [
      '-v',
      'error',
      '-show_entries',
      'format=duration:stream=codec_name,width,height',
      '-of',
      'json',
      file,
    ];
    // A cut capture makes ffprobe complain about the last partial fragment; what it read still counts.
    execFile('ffprobe', args, (error, stdout) => {
      try {
        const out = JSON.parse(stdout) as {
          format?: { duration?: string };
          streams?: { codec_name: string; width: number; height: number }[];
        };
        const stream = out.streams?.[0];
        if (!stream || !out.format?.duration) throw new Error(`ffprobe read no video stream: ${stdout}`);
        resolve({ duration: Number(out.format.duration), codec: stream.codec_name, ...stream });
      } catch (parseError) {
        reject(error ?? (parseError as Error));
      }
    });
  });
}

/** Starts `gatehouse tunnel …` (the real client); answers the local port it listens on. */
export function startTunnel(args: string[]): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TUNNEL_CLI, 'tunnel', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (c: Buffer) => {
      output += c.toString();
      const port = /listening on [\d.]+:(\d+)/.exec(output)?.[1];
      if (port) resolve({ child, port: Number(port), output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => reject(new Error(`gatehouse tunnel exited: ${output}`)));
  });
}

/**
 * Talks through a local port for about `ms`: a line every 100 ms, each echoed back. Answers what
 * was sent and received; `cut` ends it early (a killed agent closes the tunnel under it).
 */
export function converse(port: number, ms: number): Promise<{ sent: string; received: string }> {
  return new Promise((resolve) => {
    let sent = '';
    let received = '';
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started >= ms) {
        clearInterval(timer);
        socket.end();
        return;
      }
      const line = `frame ${sent.length}\n`;
      sent += line;
      socket.write(line);
    }, 100);
    socket.on('data', (c: Buffer) => (received += c.toString()));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ sent, received });
    });
    socket.on('error', () => undefined);
  });
}
