// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DesktopConnection } from './desktop-connection';

// noVNC at the boundary: only whether it was given the socket matters here.
const given = vi.hoisted(() => [] as unknown[]);
vi.mock('@novnc/novnc', () => ({
  default: class {
    viewOnly = false;
    scaleViewport = false;
    clipViewport = false;
    focusOnClick = false;
    resizeSession = false;
    background = '';
    disconnect = vi.fn();
    focus = vi.fn();
    sendCtrlAltDel = vi.fn();
    clipboardPasteFrom = vi.fn();
    constructor(_target: HTMLElement, channel: unknown) {
      given.push(channel);
    }
    addEventListener() {}
  },
}));

/** The browser's WebSocket: records the URL and every frame sent. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  readonly sent: unknown[] = [];
  binaryType = 'blob';
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
  }
  send(data: unknown) {
    this.sent.push(data);
  }
  close() {
    this.dispatchEvent(Object.assign(new Event('close'), { code: 1005, reason: '' }));
  }
}

const TOKEN = 'session-token-secret';
const PASSWORD = 'host-password-secret';
const hello = { token: TOKEN, username: 'alice', password: PASSWORD, width: 1280, height: 800 };
const target = () => document.body;

beforeEach(() => {
  FakeSocket.all = [];
  given.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => vi.unstubAllGlobals());

function open(connection: DesktopConnection): FakeSocket {
  connection.open({ path: '/api/desktop/connect?definition=d1', hello, viewOnly: false, target });
  const socket = FakeSocket.all.at(-1);
  if (!socket) throw new Error('no socket');
  return socket;
}

describe('desktop credentials stay out of reach', () => {
  it('never puts the token or the password in the URL', () => {
    const socket = open(new DesktopConnection());
    expect(socket.url).not.toContain(TOKEN);
    expect(socket.url).not.toContain(PASSWORD);
  });

  it('sends the credentials once, only after the socket opened, and never again', () => {
    const connection = new DesktopConnection();
    const socket = open(connection);
    expect(socket.sent).toEqual([]);
    socket.dispatchEvent(new Event('open'));
    socket.dispatchEvent(new Event('open'));
    expect(socket.sent).toHaveLength(1);
    socket.dispatchEvent(new MessageEvent('message', { data: '{"ready":true}' }));
    connection.sendCtrlAltDel();
    connection.paste('text');
    expect(socket.sent.filter((frame) => String(frame).includes(PASSWORD))).toHaveLength(1);
  });

  it('sends nothing when the socket closes before it opens', () => {
    const socket = open(new DesktopConnection());
    socket.close();
    socket.dispatchEvent(new Event('open'));
    expect(socket.sent).toEqual([]);
  });

  it('keeps neither the token nor the password in what the screen reads', () => {
    const connection = new DesktopConnection();
    const socket = open(connection);
    socket.dispatchEvent(new Event('open'));
    socket.dispatchEvent(new MessageEvent('message', { data: '{"ready":true,"recording_id":"r1"}' }));
    expect(given).toEqual([socket]);
    const state = JSON.stringify(connection.getState());
    expect(state).not.toContain(PASSWORD);
    expect(state).not.toContain(TOKEN);
  });

  it('gives noVNC nothing before the server says ready, nor on an error answer', () => {
    const socket = open(new DesktopConnection());
    socket.dispatchEvent(new Event('open'));
    socket.dispatchEvent(new MessageEvent('message', { data: new ArrayBuffer(12) }));
    socket.dispatchEvent(new MessageEvent('message', { data: '{"error":"not admitted"}' }));
    expect(given).toEqual([]);
  });
});
