import { z } from 'zod';
import { RdpClipboard } from './tunnels.js';

/**
 * The browser desktop (issue 18): an rdp definition opened in the console. The gateway runs the
 * RDP client (FreeRDP in a virtual X display), records what it shows, and serves it to the
 * browser as RFB (VNC) over a WebSocket. These are the WebSocket's text messages; after `ready`
 * every binary frame is RFB.
 */

/** Where the browser opens a desktop: `?definition=<rdp tunnel definition id>`. */
export const DESKTOP_CONNECT_PATH = '/api/desktop/connect';
/** Where a watcher follows a live desktop, view only: `?recording=<recording id>`. */
export const DESKTOP_WATCH_PATH = '/api/desktop/watch';

/** Desktop sizes the gateway accepts (pixels). */
export const DESKTOP_LIMITS = { minWidth: 320, maxWidth: 3840, minHeight: 240, maxHeight: 2160 } as const;

/** The WebSocket close codes of a desktop, and what they mean to the user. */
export const DESKTOP_CLOSE = {
  /** The RDP session ended (the user logged off). */
  ENDED: 1000,
  /** The server is stopping. */
  SERVER_STOPPING: 1001,
  /** An administrator terminated the session; the reason says who and why. */
  TERMINATED: 4001,
  /** The user's rights were withdrawn (signed out, no longer admitted). */
  REVOKED: 4003,
  /** The first message was missing, late or malformed. */
  BAD_INPUT: 4400,
  /** Sign in first: the token is missing, expired or not a session token. */
  SIGN_IN: 4401,
  /** Not admitted to this definition, or not allowed to watch this session. */
  FORBIDDEN: 4403,
  /** No such definition, or no live desktop with that recording id on this server. */
  NOT_FOUND: 4404,
  /** The host could not be reached, or the RDP login failed. */
  UNREACHABLE: 4502,
  /** Browser desktops are not available on this server (programs missing, or its limit reached). */
  UNAVAILABLE: 4503,
} as const;

/** A field of the hello that goes to FreeRDP line by line: one line, no control characters. */
const Line = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .max(max, `${name} is at most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), `${name} cannot hold line breaks or control characters`);

/** The browser's first message on the connect socket (a text frame). */
export const DesktopHello = z.object({
  token: z.string({ error: 'Sign in first: send your session token' }).min(1).max(512),
  username: Line('username', 256).refine((v) => v.length > 0, 'Enter the username for the remote desktop'),
  password: Line('password', 512),
  domain: Line('domain', 256).optional(),
  width: z
    .number({ error: 'width must be a number' })
    .int('width must be a whole number')
    .min(DESKTOP_LIMITS.minWidth, `width must be from ${DESKTOP_LIMITS.minWidth} to ${DESKTOP_LIMITS.maxWidth}`)
    .max(DESKTOP_LIMITS.maxWidth, `width must be from ${DESKTOP_LIMITS.minWidth} to ${DESKTOP_LIMITS.maxWidth}`),
  height: z
    .number({ error: 'height must be a number' })
    .int('height must be a whole number')
    .min(DESKTOP_LIMITS.minHeight, `height must be from ${DESKTOP_LIMITS.minHeight} to ${DESKTOP_LIMITS.maxHeight}`)
    .max(DESKTOP_LIMITS.maxHeight, `height must be from ${DESKTOP_LIMITS.minHeight} to ${DESKTOP_LIMITS.maxHeight}`),
  /**
   * The browser's screen (window.screen's available size): the largest its desktop area can grow
   * to. The gateway films only that much of its X screen (never less than the asked size or the
   * host's picture) instead of the whole 2560x1600, so a small screen costs a small film. Without
   * it the whole X screen is filmed.
   */
  screen: z
    .object({
      width: z
        .number({ error: 'screen.width must be a number' })
        .int('screen.width must be a whole number')
        .min(1)
        .max(16384),
      height: z
        .number({ error: 'screen.height must be a number' })
        .int('screen.height must be a whole number')
        .min(1)
        .max(16384),
    })
    .optional(),
});
export type DesktopHello = z.infer<typeof DesktopHello>;

/** A watcher's first message on the watch socket (a text frame). */
export const DesktopWatchHello = z.object({
  token: z.string({ error: 'Sign in first: send your session token' }).min(1).max(512),
});
export type DesktopWatchHello = z.infer<typeof DesktopWatchHello>;

/**
 * A text frame the browser may send on the connect socket after `ready`: its desktop area changed
 * size (debounced by the console). The gateway bounds it (640x480 up to its screen), applies at most
 * one a second, and the browser learns the new size from RFB (DesktopSize). Anything else is ignored.
 */
export const DesktopResize = z.strictObject({
  resize: z.strictObject({
    width: z
      .number()
      .int()
      .min(1)
      .max(DESKTOP_LIMITS.maxWidth * 2),
    height: z
      .number()
      .int()
      .min(1)
      .max(DESKTOP_LIMITS.maxHeight * 2),
  }),
});
export type DesktopResize = z.infer<typeof DesktopResize>;

/**
 * The most text the browser desktop's clipboard carries at a time, in bytes of UTF-8, either way:
 * the gateway hands it to its X display in one request (docs/deploy/desktop.md, Clipboard).
 */
export const DESKTOP_CLIPBOARD_MAX_BYTES = 256_000;

/** What a user reads when a text is too long for the desktop's clipboard. */
export const DESKTOP_CLIPBOARD_TOO_LONG = `The text is too long for the desktop's clipboard: at most ${DESKTOP_CLIPBOARD_MAX_BYTES.toLocaleString('en-US')} bytes of UTF-8 go at a time.`;

/** The UTF-8 size of a text, in bytes (in the browser as in the server). */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * The clipboard of the browser desktop, in full Unicode and outside RFB (x11vnc's cut text is
 * Latin-1 only): a text frame on the connect socket after `ready`. From the browser, the text
 * becomes the desktop's clipboard (if the definition lets text into the desktop); from the gateway,
 * it is what the desktop copied (if the definition lets text out). At most
 * DESKTOP_CLIPBOARD_MAX_BYTES of UTF-8; never sent to or taken from watchers.
 */
export const DesktopClipboardText = z.strictObject({
  clipboard: z.strictObject({
    text: z
      .string({ error: 'clipboard.text must be text' })
      .refine((text) => utf8Bytes(text) <= DESKTOP_CLIPBOARD_MAX_BYTES, DESKTOP_CLIPBOARD_TOO_LONG),
  }),
});
export type DesktopClipboardText = z.infer<typeof DesktopClipboardText>;

/** Why the gateway did not take a clipboard text: the console says it in the user's language. */
export const DESKTOP_CLIPBOARD_REFUSALS = ['not-allowed', 'too-long', 'malformed', 'unavailable'] as const;

/**
 * The gateway's answer to a clipboard text it did not take (the policy lets no text in, too long,
 * malformed, or the desktop's clipboard is not running): why, in English, and as a code.
 */
export const DesktopClipboardRefused = z.strictObject({
  clipboard_refused: z.string(),
  code: z.enum(DESKTOP_CLIPBOARD_REFUSALS),
});
export type DesktopClipboardRefused = z.infer<typeof DesktopClipboardRefused>;

/** The server's answer once the desktop is up; binary RFB frames follow. */
export const DesktopReady = z.object({
  ready: z.literal(true),
  /** The recording of the session (connect only). */
  recording_id: z.string().optional(),
  width: z.number().int(),
  height: z.number().int(),
  /**
   * The definition's clipboard policy, enforced by the gateway (connect only; absent from older
   * servers, read as 'both'): the console offers only the directions it allows.
   */
  clipboard: RdpClipboard.optional(),
});
export type DesktopReady = z.infer<typeof DesktopReady>;

/** What the server sends instead of `ready` when the desktop cannot be opened, before it closes. */
export const DesktopError = z.object({ error: z.string() });
export type DesktopError = z.infer<typeof DesktopError>;
