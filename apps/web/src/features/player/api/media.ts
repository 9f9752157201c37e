import { TOKEN_HEADER, TOKEN_HEADER_ALT } from '@gatehouse/contracts';
import { apiCall, buildUrl } from '../../../lib/api-client';
import { ApiError, asErrorBody } from '../../../lib/api-error';
import { getToken } from '../../../lib/session';
import type { SeekAnswer } from '../replay/replay-engine';
import { PLAYER_API } from './player-routes';

/** The seconds-from-start at which the server finds a byte offset (GET /seek). */
export function seekRecording(id: string, t: number): Promise<SeekAnswer> {
  return apiCall(PLAYER_API.seekRecording, { params: { id }, query: { t: String(t) } });
}

/**
 * Bytes [start, end) of the asciicast, with an HTTP range request and the token header. A server
 * that answers the whole file (200) is sliced; a range past the end (416) is no bytes.
 */
export async function fetchCastRange(id: string, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return new Uint8Array(0);
  const token = getToken();
  const headers: Record<string, string> = { Range: `bytes=${String(start)}-${String(end - 1)}` };
  if (token) {
    headers[TOKEN_HEADER] = token;
    headers[TOKEN_HEADER_ALT] = token;
  }
  const response = await fetch(buildUrl(PLAYER_API.getRecordingCast.path, { id }), {
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (response.status === 416) return new Uint8Array(0);
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, asErrorBody(parseJson(text)));
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return response.status === 206 ? bytes : bytes.slice(start, end);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** What a player downloads: the asciicast, the video, or the evidence bundle (always an attachment). */
export type MediaKind = 'cast' | 'video' | 'bundle';

/** A URL to the recording's cast, video or evidence bundle carrying a fresh ticket. */
export async function mediaUrl(id: string, kind: MediaKind, download = false): Promise<string> {
  const { ticket } = await apiCall(PLAYER_API.openRecording, { params: { id } });
  if (kind === 'bundle') return buildUrl(PLAYER_API.getRecordingBundle.path, { id }, { ticket });
  const route = kind === 'cast' ? PLAYER_API.getRecordingCast : PLAYER_API.getRecordingVideo;
  return buildUrl(route.path, { id }, { ticket, ...(download ? { download: 'true' } : {}) });
}

/** Saves the file through the browser's download (the server answers it as an attachment). */
export async function downloadMedia(id: string, kind: MediaKind): Promise<void> {
  const link = document.createElement('a');
  link.href = await mediaUrl(id, kind, true);
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
