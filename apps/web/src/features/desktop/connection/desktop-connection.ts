import RFB from '@novnc/novnc';
import type { ClipboardPolicy, ClipboardRefusal, DesktopEnd, DesktopSize } from './desktop-protocol';
import { endOfClose, parseAnswer, parseClipboardFrame, wsUrl } from './desktop-protocol';

/** Where a desktop connection is: not opened, waiting for the server's ready, showing, or over. */
export type DesktopPhase = 'idle' | 'connecting' | 'connected' | 'ended';

/** What the desktop screens show. */
export interface DesktopState {
  phase: DesktopPhase;
  /** Why it is over (phase 'ended'). */
  end: DesktopEnd | null;
  /** The recording the gateway films this desktop into, once ready. */
  recordingId: string | null;
  /** The desktop's size as the server answered it. */
  size: DesktopSize | null;
  /** The text last copied on the remote desktop, or null. */
  clipboard: string | null;
  /**
   * Why the gateway did not take the last text sent to the desktop's clipboard (its own words), or
   * null; `seq` tells a new refusal from the last one.
   */
  clipboardRefused: { message: string; code: ClipboardRefusal | null; seq: number } | null;
  /** What the definition lets the clipboard carry (the gateway enforces it). */
  clipboardPolicy: ClipboardPolicy;
}

/** What to open: the server path with its query, the first frame, and whether input is sent. */
export interface DesktopOpen {
  path: string;
  hello: object;
  viewOnly: boolean;
  /** The element the desktop is drawn into; it must be in the page when the server says ready. */
  target: () => HTMLElement | null;
}

const IDLE: DesktopState = {
  phase: 'idle',
  end: null,
  recordingId: null,
  size: null,
  clipboard: null,
  clipboardRefused: null,
  clipboardPolicy: 'both',
};

/**
 * One browser desktop: opens the WebSocket, sends the first frame (token and, for a connection, the
 * host credentials) once open and then forgets it, waits for the server's ready, and hands the open
 * socket to noVNC in the same event, so no RFB byte that follows can be missed. The close code says
 * how it ended. A plain class; `useDesktopConnection` subscribes and disposes of it.
 */
export class DesktopConnection {
  private state: DesktopState = IDLE;
  private readonly listeners = new Set<() => void>();
  private socket: WebSocket | null = null;
  private rfb: RFB | null = null;
  private detach: (() => void) | null = null;
  /** Set by the user's Disconnect, so its close reads as leaving, not as a lost connection. */
  private leaving = false;

  /** The current state (stable between changes). */
  readonly getState = (): DesktopState => this.state;

  /** Calls the listener on every change; answers the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Opens the desktop (closing any earlier one). */
  open({ path, hello, viewOnly, target }: DesktopOpen): void {
    this.dispose();
    this.leaving = false;
    this.set({ ...IDLE, phase: 'connecting' });
    const socket = new WebSocket(wsUrl(path));
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    // The first frame carries the token (and the host password): kept only until the socket opens.
    let first: string | null = JSON.stringify(hello);
    let serverError: string | null = null;

    const onOpen = () => {
      if (first !== null) socket.send(first);
      first = null;
    };
    const onMessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      const answer = parseAnswer(event.data);
      if (answer.kind === 'error') serverError = answer.message;
      if (answer.kind !== 'ready') return;
      socket.removeEventListener('message', onMessage);
      const element = target();
      if (!element) {
        socket.close();
        return;
      }
      const rfb = new RFB(element, socket, { shared: true });
      // The clipboard travels in UTF-8 in text frames beside RFB (the gateway's x11vnc exchanges
      // none: RFB's cut text is Latin-1 only). noVNC reads a text frame as no bytes and skips it.
      socket.addEventListener('message', onClipboard);
      rfb.viewOnly = viewOnly;
      rfb.scaleViewport = true;
      rfb.clipViewport = false;
      rfb.resizeSession = false;
      rfb.focusOnClick = true;
      rfb.background = 'transparent';
      this.rfb = rfb;
      this.set({
        phase: 'connected',
        recordingId: answer.recordingId,
        size: answer.size,
        clipboardPolicy: answer.clipboard,
      });
      if (!viewOnly) rfb.focus({ preventScroll: true });
    };
    let refusals = 0;
    const onClipboard = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      const frame = parseClipboardFrame(event.data);
      // An empty copy is no copy: it must not show as a new clipboard.
      if (frame?.kind === 'copied' && frame.text !== '') this.set({ clipboard: frame.text });
      if (frame?.kind === 'refused')
        this.set({ clipboardRefused: { message: frame.message, code: frame.code, seq: (refusals += 1) } });
    };
    const onClose = (event: CloseEvent) => {
      first = null;
      // noVNC hears the close itself and takes its canvas down.
      this.release(false);
      const end: DesktopEnd = this.leaving
        ? { kind: 'left', message: null }
        : endOfClose(event.code, event.reason, serverError);
      this.set({ phase: 'ended', end });
    };
    socket.addEventListener('open', onOpen);
    socket.addEventListener('message', onMessage);
    socket.addEventListener('close', onClose);
    this.detach = () => {
      socket.removeEventListener('open', onOpen);
      socket.removeEventListener('message', onMessage);
      socket.removeEventListener('message', onClipboard);
      socket.removeEventListener('close', onClose);
    };
  }

  /** The user's Disconnect (or Cancel while connecting): closes the desktop; it ends as 'left'. */
  readonly disconnect = (): void => {
    if (!this.socket) return;
    this.leaving = true;
    this.rfb?.disconnect();
    this.socket.close();
  };

  /** Back to the start (the form), after an end. */
  readonly reset = (): void => {
    this.dispose();
    this.set(IDLE);
  };

  /** Sends Ctrl+Alt+Del to the remote desktop. */
  readonly sendCtrlAltDel = (): void => {
    this.rfb?.sendCtrlAltDel();
    this.rfb?.focus({ preventScroll: true });
  };

  /**
   * Gives the remote desktop this text as its clipboard: a text frame to the gateway, which checks
   * the definition's policy and the size (the dialog refuses a text too long before it is sent).
   */
  readonly paste = (text: string): void => {
    // 1: WebSocket.OPEN.
    if (this.state.phase !== 'connected' || this.socket?.readyState !== 1) return;
    this.socket.send(JSON.stringify({ clipboard: { text } }));
  };

  /**
   * Asks the gateway to resize the desktop to the browser's area (a text frame; the gateway bounds
   * and rate-limits it, and noVNC hears the new size in RFB). Only while the desktop shows.
   */
  readonly requestSize = (size: DesktopSize): void => {
    // 1: WebSocket.OPEN.
    if (this.state.phase !== 'connected' || this.socket?.readyState !== 1) return;
    this.socket.send(JSON.stringify({ resize: size }));
  };

  /** Gives the keyboard to the remote desktop. */
  readonly focus = (): void => {
    this.rfb?.focus({ preventScroll: true });
  };

  /** Stops listening and closes the desktop without a state change (the screen is going away). */
  dispose(): void {
    const socket = this.socket;
    this.release(true);
    socket?.close();
  }

  private release(disconnectRfb: boolean): void {
    this.detach?.();
    this.detach = null;
    const rfb = this.rfb;
    this.rfb = null;
    this.socket = null;
    if (disconnectRfb) rfb?.disconnect();
  }

  private set(patch: Partial<DesktopState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
