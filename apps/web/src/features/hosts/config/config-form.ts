import type { BodyOf, Routes } from '@gatehouse/contracts';
import type { FieldError, HostConfig, LogLevel } from './host-config';
import { BITRATE_MBPS, FPS, bitrateToMbps, formatWhitelist, mbpsToBitrate, parseWhitelist } from './host-config';

/** What POST api/agent/{id}/config takes. */
export type ConfigBody = BodyOf<Routes['saveAgentConfig']>;

/** The config dialog's fields as typed: numbers stay text until saved. */
export interface ConfigForm {
  loglevel: LogLevel;
  recordingEnabled: boolean;
  fps: string;
  scale: string;
  /** Megabits per second. */
  bitrateMbps: string;
  /** Comma-separated ports. */
  whitelist: string;
}

/** The fields that can be wrong. */
export type ConfigField = 'fps' | 'scale' | 'bitrateMbps' | 'whitelist';

/** Messages of the fields that are wrong. */
export type ConfigErrors = Partial<Record<ConfigField, FieldError>>;

/** The form for a stored config. */
export function toForm(config: HostConfig): ConfigForm {
  return {
    loglevel: config.loglevel,
    recordingEnabled: config.recording_enabled,
    fps: String(config.recording_fps),
    scale: String(config.recording_scale),
    bitrateMbps: String(bitrateToMbps(config.recording_bitrate)),
    whitelist: formatWhitelist(config.whitelist),
  };
}

function asNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim());
}

/** Checks each field against the bounds the server applies (spec §5). */
export function validateForm(form: ConfigForm): ConfigErrors {
  const errors: ConfigErrors = {};
  const fps = asNumber(form.fps);
  if (!Number.isInteger(fps) || fps < FPS.min || fps > FPS.max)
    errors.fps = { key: 'hosts.config.errors.fps', values: FPS };
  const scale = asNumber(form.scale);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1) errors.scale = { key: 'hosts.config.errors.scale' };
  const mbps = asNumber(form.bitrateMbps);
  if (!Number.isFinite(mbps) || mbps < BITRATE_MBPS.min || mbps > BITRATE_MBPS.max)
    errors.bitrateMbps = { key: 'hosts.config.errors.bitrate', values: BITRATE_MBPS };
  const whitelist = parseWhitelist(form.whitelist);
  if ('error' in whitelist) errors.whitelist = whitelist.error;
  return errors;
}

/** The body to save; call only when validateForm found nothing. */
export function toBody(form: ConfigForm): ConfigBody {
  const whitelist = parseWhitelist(form.whitelist);
  return {
    loglevel: form.loglevel,
    recording_enabled: form.recordingEnabled,
    recording_fps: asNumber(form.fps),
    recording_scale: asNumber(form.scale),
    recording_bitrate: mbpsToBitrate(asNumber(form.bitrateMbps)),
    whitelist: 'ports' in whitelist ? whitelist.ports : [],
  };
}
