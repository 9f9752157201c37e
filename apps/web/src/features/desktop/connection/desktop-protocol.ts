/**
 * The browser desktop protocol (docs: brief of issue 18, server in apps/server/src/desktop): a
 * WebSocket on the console's own origin, a first TEXT frame with the session token (never in the
 * URL), one TEXT answer `{ready}` or `{error}`, then binary RFB frames both ways.
 */

/** The limits the server accepts for the desktop's size. */
export const DESKTOP_SIZE = { minWidth: 320, maxWidth: 3840, minHeight: 240, maxHeight: 2160 } as const;

/** The desktop's size in pixels. */
export interface DesktopSize {
  width: number;
  height: number;
}

/** The first frame of `/api/desktop/connect`. */
export interface ConnectHello extends DesktopSize {
  token: string;
  username: string;
  password: string;
  domain?: string;
  /** The browser's screen: the largest the desktop area can grow to (the gateway's film is that large). */
  screen?: DesktopSize;
}

/** The first frame of `/api/desktop/watch`. */
export interface WatchHello {
  token: string;
}

/**
 * The rdp definition's clipboard policy, enforced by the gateway: both ways, into the desktop
 * only, out of it only, or off. The console offers only what the policy allows.
 */
export type ClipboardPolicy = 'both' | 'to-desktop' | 'from-desktop' | 'off';
const POLICIES: readonly string[] = ['both', 'to-desktop', 'from-desktop', 'off'];

/** The server's TEXT answer before the RFB stream: ready, or why not. */
export type ServerAnswer =
  | { kind: 'ready'; recordingId: string | null; size: DesktopSize | null; clipboard: ClipboardPolicy }
  | { kind: 'error'; message: string }
  | { kind: 'unknown' };

/**
 * Why a desktop connection is over (or never opened), from the close code (and the server's
 * error message before ready); 'left' is the user's own Disconnect.
 */
export type DesktopEndKind =
  | 'terminated'
  | 'withdrawn'
  | 'badInput'
  | 'signIn'
  | 'notAdmitted'
  | 'notFound'
  | 'hostFailed'
  | 'unsupported'
  | 'serverStopping'
  | 'ended'
  | 'left'
  | 'lost';

/** How a desktop connection ended: the kind, and the server's own words when it gave any. */
export interface DesktopEnd {
  kind: DesktopEndKind;
  /** The server's `{error}` message or the close reason; null when it gave none. */
  message: string | null;
}

const KIND_BY_CODE: Readonly<Record<number, DesktopEndKind>> = {
  4001: 'terminated',
  4003: 'withdrawn',
  4400: 'badInput',
  4401: 'signIn',
  4403: 'notAdmitted',
  // Not in the brief's list; the gateway answers it for an unknown definition or recording.
  4404: 'notFound',
  4502: 'hostFailed',
  4503: 'unsupported',
  1001: 'serverStopping',
  1000: 'ended',
};

/** The end a close code means; codes the protocol does not name read as a lost connection. */
export function endOfClose(code: number, reason: string, serverError: string | null): DesktopEnd {
  const kind = KIND_BY_CODE[code] ?? 'lost';
  const text = reason.trim() !== '' ? reason.trim() : null;
  // Before ready the server explains in its {error} frame; after, a termination's reason is in the close.
  return { kind, message: serverError ?? text };
}

/**
 * The WebSocket URL of a server path on the console's own origin (ws: or wss: as the page), under
 * the path the console is served from (the server may host it below a prefix).
 */
export function wsUrl(path: string, location: Pick<Location, 'href'> = window.location): string {
  const base = new URL('.', location.href);
  const protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${base.host}${base.pathname.replace(/\/$/, '')}${path}`;
}

/** The size to ask for: the area's size in whole pixels, within the server's limits. */
export function desktopSize(area: { width: number; height: number }): DesktopSize {
  const clamp = (value: number, min: number, max: number) =>
    Math.min(max, Math.max(min, Number.isFinite(value) ? Math.floor(value) : min));
  return {
    width: clamp(area.width, DESKTOP_SIZE.minWidth, DESKTOP_SIZE.maxWidth),
    height: clamp(area.height, DESKTOP_SIZE.minHeight, DESKTOP_SIZE.maxHeight),
  };
}

/**
 * The browser's screen (its available part, in CSS pixels, as the desktop area is measured), or
 * undefined when the browser does not say.
 */
export function browserScreen(
  screen: Pick<Screen, 'availWidth' | 'availHeight'> | undefined = globalThis.screen,
): DesktopSize | undefined {
  const width = Math.ceil(screen?.availWidth ?? 0);
  const height = Math.ceil(screen?.availHeight ?? 0);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** Reads the server's TEXT answer; anything else is 'unknown'. */
export function parseAnswer(text: string): ServerAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unknown' };
  }
  if (typeof value !== 'object' || value === null) return { kind: 'unknown' };
  const answer = value as {
    ready?: unknown;
    error?: unknown;
    recording_id?: unknown;
    width?: unknown;
    height?: unknown;
    clipboard?: unknown;
  };
  if (typeof answer.error === 'string') return { kind: 'error', message: answer.error };
  if (answer.ready !== true) return { kind: 'unknown' };
  const size =
    typeof answer.width === 'number' && typeof answer.height === 'number'
      ? { width: answer.width, height: answer.height }
      : null;
  return {
    kind: 'ready',
    recordingId: typeof answer.recording_id === 'string' ? answer.recording_id : null,
    size,
    // Absent (a server before the policy, or a watcher's answer): both; an unknown value: off.
    clipboard:
      answer.clipboard === undefined
        ? 'both'
        : POLICIES.includes(answer.clipboard as string)
          ? (answer.clipboard as ClipboardPolicy)
          : 'off',
  };
}

/** The most text the desktop's clipboard carries at a time, in bytes of UTF-8 (the gateway's bound). */
export { DESKTOP_CLIPBOARD_MAX_BYTES as CLIPBOARD_MAX_BYTES, utf8Bytes } from '@gatehouse/contracts';

/** Why the gateway did not take a clipboard text (it sends its English words too). */
export type ClipboardRefusal = 'not-allowed' | 'too-long' | 'malformed' | 'unavailable';
const REFUSALS: readonly string[] = ['not-allowed', 'too-long', 'malformed', 'unavailable'];

/** A clipboard frame from the gateway: what the desktop copied, or why a text sent was not taken. */
export type ClipboardFrame =
  { kind: 'copied'; text: string } | { kind: 'refused'; message: string; code: ClipboardRefusal | null };

/** Reads a clipboard text frame after ready; anything else is null. */
export function parseClipboardFrame(text: string): ClipboardFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const frame = value as { clipboard?: { text?: unknown } | null; clipboard_refused?: unknown; code?: unknown };
  if (typeof frame.clipboard_refused === 'string')
    return {
      kind: 'refused',
      message: frame.clipboard_refused,
      // A code this console does not know: the gateway's own words are shown.
      code: REFUSALS.includes(frame.code as string) ? (frame.code as ClipboardRefusal) : null,
    };
  if (typeof frame.clipboard === 'object' && frame.clipboard !== null && typeof frame.clipboard.text === 'string')
    return { kind: 'copied', text: frame.clipboard.text };
  return null;
}
