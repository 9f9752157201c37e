import os from 'node:os';
import path from 'node:path';
import type { CaptureOptions } from './video-capture.js';

/** What the agent runs with: flags first, then environment variables. */
export interface AgentOptions {
  server: string;
  key: string | undefined;
  stateDir: string;
  hostname: string;
  /** Desktop capture for RDP session video. */
  capture: CaptureOptions;
  /** Enrol (when not enrolled yet) and exit, without connecting: what the install script runs once. */
  enrolOnly: boolean;
}

export const USAGE = `Usage: gatehouse-agent --server URL [--key REGISTRATION_KEY] [--state-dir DIR]

  --server URL        the Gatehouse server, such as https://gatehouse.example.com   (GATEHOUSE_SERVER)
  --key KEY           registration key from the console's Keys screen; needed once  (GATEHOUSE_REGISTRATION_KEY)
  --state-dir DIR     where the agent keeps its identity and applied config         (GATEHOUSE_AGENT_STATE_DIR)
                      default: ~/.gatehouse-agent
  --hostname NAME     name to report instead of this machine's hostname            (GATEHOUSE_AGENT_HOSTNAME)
  --capture-source S  film this screen for every RDP stream instead: an X display on  (GATEHOUSE_CAPTURE_SOURCE)
                      Linux (a plain X desktop such as :0 shared by freerdp-shadow), gdigrab's
                      source on Windows. Default: on Linux each stream's own xrdp session
                      (needs root), on Windows the desktop (not from a service)
  --capture-wait SEC  how long to wait for a stream's xrdp session display (default 120) (GATEHOUSE_CAPTURE_WAIT)
  --ffmpeg PATH       the ffmpeg that captures RDP session video (default ffmpeg)   (GATEHOUSE_FFMPEG)
  --enrol-only        enrol with the key if not enrolled yet, then exit (the install script runs this once)
  --version           print the agent's version`;

/** Reads the options; answers an error text when they are unusable. */
export function readOptions(
  argv: string[],
  env: NodeJS.ProcessEnv,
): AgentOptions | { error: string } | 'help' | 'version' {
  const flags = new Map<string, string>();
  let enrolOnly = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--version') return 'version';
    if (arg === '--enrol-only' || arg === '--enroll-only') {
      enrolOnly = true;
      continue;
    }
    const match =
      /^--(server|key|state-dir|hostname|capture-source|capture-display|capture-wait|ffmpeg)(?:=(.*))?$/.exec(arg);
    if (!match?.[1]) return { error: `Unknown argument ${arg}` };
    const value = match[2] ?? argv[(i += 1)];
    if (value === undefined || value === '') return { error: `--${match[1]} needs a value` };
    // --capture-display reads better on Linux; both name the same option.
    flags.set(match[1] === 'capture-display' ? 'capture-source' : match[1], value);
  }
  const wait = flags.get('capture-wait') ?? (env.GATEHOUSE_CAPTURE_WAIT || undefined);
  const waitSeconds = wait === undefined ? undefined : Number(wait);
  if (waitSeconds !== undefined && !(Number.isInteger(waitSeconds) && waitSeconds >= 1 && waitSeconds <= 3600))
    return { error: `--capture-wait must be whole seconds from 1 to 3600, not ${wait}` };
  const server = flags.get('server') ?? env.GATEHOUSE_SERVER;
  if (!server) return { error: 'Say which server to join: --server URL (or GATEHOUSE_SERVER).' };
  if (!/^https?:\/\/[^\s/]+/.test(server))
    return { error: `--server must be an http:// or https:// URL, not ${server}` };
  return {
    server: server.replace(/\/+$/, ''),
    key: flags.get('key') ?? env.GATEHOUSE_REGISTRATION_KEY,
    stateDir: path.resolve(
      flags.get('state-dir') ?? env.GATEHOUSE_AGENT_STATE_DIR ?? path.join(os.homedir(), '.gatehouse-agent'),
    ),
    hostname: flags.get('hostname') ?? env.GATEHOUSE_AGENT_HOSTNAME ?? os.hostname(),
    capture: {
      source: flags.get('capture-source') ?? (env.GATEHOUSE_CAPTURE_SOURCE || undefined),
      ffmpeg: flags.get('ffmpeg') ?? (env.GATEHOUSE_FFMPEG || 'ffmpeg'),
      ...(waitSeconds === undefined ? {} : { waitMs: waitSeconds * 1000 }),
    },
    enrolOnly,
  };
}

/** The OS code of spec §3: Linux 1, Windows 2, MacOS 3. */
export function osCode(platform: NodeJS.Platform = process.platform): 1 | 2 | 3 {
  if (platform === 'win32') return 2;
  if (platform === 'darwin') return 3;
  return 1;
}
