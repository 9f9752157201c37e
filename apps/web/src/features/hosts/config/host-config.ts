import type { ResponseOf, Routes } from '@gatehouse/contracts';

/** A host's configuration as the server answers it. */
export type HostConfig = ResponseOf<Routes['getAgentConfig']>;

/** Log levels an agent knows, most verbose last (spec §3). */
export const LOG_LEVELS = ['INFO', 'WARNING', 'ERROR', 'DEBUG'] as const;
/** One log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Server kbps = console Mbps × this factor (spec §9). */
export const BITRATE_FACTOR = 1000;
/** Bounds the server takes: 100k to 50000k. */
export const BITRATE_MBPS = { min: 0.1, max: 50 } as const;
/** Frames per second bounds. */
export const FPS = { min: 1, max: 30 } as const;
/** Most ports a whitelist may hold. */
export const MAX_WHITELIST_PORTS = 200;

/** The defaults of spec §9; the whitelist default depends on the OS (Windows 2: [3389]). */
export function defaultConfig(os: number): HostConfig {
  return {
    loglevel: 'ERROR',
    recording_enabled: false,
    recording_fps: 5,
    recording_scale: 1,
    recording_bitrate: '2000k',
    whitelist: os === 2 ? [3389] : [],
  };
}

/** '2000k' → 2 (Mbps); text the console cannot read gives the default 2. */
export function bitrateToMbps(bitrate: string): number {
  const kbps = /^\s*(\d+(?:\.\d+)?)\s*k?\s*$/i.exec(bitrate);
  return kbps?.[1] ? Number(kbps[1]) / BITRATE_FACTOR : 2;
}

/** 2 (Mbps) → '2000k', as the server keeps it; fractions of a kbps are rounded. */
export function mbpsToBitrate(mbps: number): string {
  return `${String(Math.round(mbps * BITRATE_FACTOR))}k`;
}

/** A message id with its values, for the form to translate. */
export interface FieldError {
  key: string;
  values?: Record<string, string | number>;
}

/** What parsing the whitelist text gives: the ports, or why not. */
export type WhitelistResult = { ports: number[] } | { error: FieldError };

/**
 * Reads the comma-separated whitelist (spec §3, §5): a trailing comma is trimmed before
 * splitting; each entry must be a whole port 1-65535. Duplicates are dropped, order is kept.
 */
export function parseWhitelist(text: string): WhitelistResult {
  const trimmed = text.trim().replace(/,\s*$/, '').trim();
  if (trimmed === '') return { ports: [] };
  const ports: number[] = [];
  for (const raw of trimmed.split(',')) {
    const entry = raw.trim();
    if (entry === '') return { error: { key: 'hosts.config.errors.emptyPort' } };
    const port = /^\d+$/.test(entry) ? Number(entry) : Number.NaN;
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return { error: { key: 'hosts.config.errors.badPort', values: { entry } } };
    if (!ports.includes(port)) ports.push(port);
  }
  if (ports.length > MAX_WHITELIST_PORTS)
    return { error: { key: 'hosts.config.errors.tooManyPorts', values: { max: MAX_WHITELIST_PORTS } } };
  return { ports };
}

/** The whitelist as the form edits it: '22, 3389'. */
export function formatWhitelist(ports: readonly number[]): string {
  return ports.join(', ');
}
