// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { StoredUser } from '../../../lib/session';
import { getSession, signIn, signOut } from '../../../lib/session';
import { DesktopPage } from './desktop-page';
import { WatchPage } from './watch-page';

/** What the fake noVNC recorded of each connection. */
interface FakeRfb {
  target: HTMLElement;
  channel: unknown;
  options: unknown;
  viewOnly: boolean;
  scaleViewport: boolean;
  clipViewport: boolean;
  focusOnClick: boolean;
  resizeSession: boolean;
  disconnect: ReturnType<typeof vi.fn>;
  sendCtrlAltDel: ReturnType<typeof vi.fn>;
  clipboardPasteFrom: ReturnType<typeof vi.fn>;
  focus: ReturnType<typeof vi.fn>;
  emit: (type: string, detail: unknown) => void;
}

const rfbs = vi.hoisted(() => [] as FakeRfb[]);

// noVNC at the boundary: the page's code runs as is; the fake records what it was given.
vi.mock('@novnc/novnc', () => ({
  default: class {
    viewOnly = false;
    scaleViewport = false;
    clipViewport = false;
    focusOnClick = false;
    resizeSession = false;
    background = '';
    disconnect = vi.fn();
    sendCtrlAltDel = vi.fn();
    clipboardPasteFrom = vi.fn();
    focus = vi.fn();
    blur = vi.fn();
    private readonly events = new EventTarget();
    constructor(
      public target: HTMLElement,
      public channel: unknown,
      public options: unknown,
    ) {
      rfbs.push(this);
    }
    addEventListener(type: string, listener: (event: Event) => void) {
      this.events.addEventListener(type, listener);
    }
    removeEventListener(type: string, listener: (event: Event) => void) {
      this.events.removeEventListener(type, listener);
    }
    emit(type: string, detail: unknown) {
      this.events.dispatchEvent(new CustomEvent(type, { detail }));
    }
  },
}));

/** The browser's WebSocket at the boundary: records the URL and frames; the test plays the server. */
class FakeSocket extends EventTarget {
  static all: FakeSocket[] = [];
  readonly sent: unknown[] = [];
  binaryType = 'blob';
  readyState = 0;
  closedByClient = false;
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
  }
  send(data: unknown) {
    this.sent.push(data);
  }
  close() {
    if (this.readyState === 3) return;
    this.closedByClient = true;
    this.finish(1005, '');
  }
  // The server's side:
  accept() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  text(value: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(value) }));
  }
  finish(code: number, reason: string) {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason, wasClean: true }));
  }
  get hello(): Record<string, unknown> {
    return JSON.parse(String(this.sent[0])) as Record<string, unknown>;
  }
}

const DEF = 'a1b2c3d4-0000-4000-8000-000000000002';
const REC = 'c0ffee00-0000-4000-8000-000000000001';
const definition = {
  id: DEF,
  type: 'rdp',
  name: 'Finance desktop',
  host: { id: 'h1', hostname: 'win-01' },
  port: 3389,
  users: [],
  group: null,
  agents: [],
  ssh_login: null,
  ssh_auth: null,
  public_key: null,
  allow_port_forwarding: false,
  created_at: '2026-01-01T00:00:00.000Z',
};
const LISTS = { ssh: [], rdp: [definition], generic: [], agent: [] };
const PASSWORD = 'S3cret-pa55!';

function signInAs() {
  const user: StoredUser = {
    email: 'ada@example.test',
    username: 'ada@example.test',
    name: null,
    roles: [{ name: 'ops', permissions: ['list-recording'] }],
    effectivePermissions: ['list-recording'],
    authType: 'jwt_auth',
  };
  signIn('session-token-1', user);
}

function renderAt(path: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/desktop/:definitionId" element={<DesktopPage />} />
        <Route path="/desktop/watch/:recordingId" element={<WatchPage />} />
        <Route path="/tunnels" element={<p>Tunnels screen</p>} />
        <Route path="/recordings" element={<p>Sessions screen</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

/** Opens the page, fills the form and connects; answers the socket the page opened. */
async function connect(domain = '') {
  renderAt(`/desktop/${DEF}`);
  await screen.findByRole('heading', { name: 'Sign in to Finance desktop (win-01)' });
  const target = screen.getByTestId('desktop-target');
  Object.defineProperty(target, 'clientWidth', { configurable: true, value: 1366 });
  Object.defineProperty(target, 'clientHeight', { configurable: true, value: 700 });
  fireEvent.change(screen.getByLabelText(/User name/), { target: { value: ' alice ' } });
  fireEvent.change(screen.getByLabelText(/Password/), { target: { value: PASSWORD } });
  if (domain) fireEvent.change(screen.getByLabelText('Domain (optional)'), { target: { value: domain } });
  fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
  const socket = FakeSocket.all.at(-1);
  if (!socket) throw new Error('no socket opened');
  return socket;
}

async function ready(socket: FakeSocket, extra: Record<string, unknown> = {}) {
  act(() => {
    socket.accept();
    socket.text({ ready: true, recording_id: REC, width: 1366, height: 700, ...extra });
  });
  await screen.findByRole('button', { name: 'Disconnect' });
  const rfb = rfbs.at(-1);
  if (!rfb) throw new Error('no RFB');
  return rfb;
}

beforeEach(() => {
  FakeSocket.all = [];
  rfbs.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  fakeServer({ 'GET api/tunneldefinition': [200, LISTS] });
  signInAs();
});

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('DesktopPage', () => {
  it('opens the socket without the token in its URL and sends the token, credentials and area size first', async () => {
    const socket = await connect('CORP');
    expect(socket.url).toBe(`ws://localhost:3000/api/desktop/connect?definition=${DEF}`);
    expect(socket.url).not.toContain('session-token-1');
    expect(socket.sent).toEqual([]);
    expect(screen.getByRole('status').textContent).toContain('Connecting to Finance desktop (win-01)…');
    act(() => socket.accept());
    expect(socket.sent).toHaveLength(1);
    expect(socket.hello).toEqual({
      token: 'session-token-1',
      username: 'alice',
      password: PASSWORD,
      domain: 'CORP',
      width: 1366,
      height: 700,
      // The browser's screen (jsdom's): the gateway makes its filmed screen that large.
      screen: { width: window.screen.availWidth, height: window.screen.availHeight },
    });
  });

  it('leaves the domain out when none is given', async () => {
    const socket = await connect();
    act(() => socket.accept());
    expect(Object.keys(socket.hello).sort()).toEqual(['height', 'password', 'screen', 'token', 'username', 'width']);
  });

  it('hands the open socket to noVNC on ready: scaled, not clipped, focus on click, keyboard to the desktop', async () => {
    const socket = await connect();
    const rfb = await ready(socket);
    expect(rfbs).toHaveLength(1);
    expect(rfb.channel).toBe(socket);
    expect(rfb.target).toBe(screen.getByTestId('desktop-target'));
    expect(rfb).toMatchObject({
      viewOnly: false,
      scaleViewport: true,
      clipViewport: false,
      focusOnClick: true,
      resizeSession: false,
    });
    expect(rfb.focus).toHaveBeenCalled();
    expect(socket.binaryType).toBe('arraybuffer');
    const toolbar = screen.getByRole('toolbar', { name: 'Desktop controls' });
    expect(within(toolbar).getByRole('heading', { name: 'Finance desktop (win-01)' })).toBeTruthy();
    expect(within(toolbar).getByText('This session is recorded')).toBeTruthy();
    expect(within(toolbar).getByRole('button', { name: 'Full screen' })).toBeTruthy();
    // The desktop is a picture of another screen: left to right in every language.
    expect(screen.getByRole('region', { name: 'Desktop of Finance desktop (win-01)' }).getAttribute('dir')).toBe('ltr');
  });

  it('keeps no password once connected: not on the page, and an empty field when connecting again', async () => {
    const socket = await connect();
    expect(document.body.innerHTML).not.toContain(PASSWORD);
    await ready(socket);
    expect(document.body.innerHTML).not.toContain(PASSWORD);
    act(() => socket.finish(1000, ''));
    fireEvent.click(await screen.findByRole('button', { name: 'Connect again' }));
    expect(screen.getByLabelText<HTMLInputElement>(/User name/).value).toBe('alice');
    expect(screen.getByLabelText<HTMLInputElement>(/Password/).value).toBe('');
  });

  it('says what the server said before ready, by close code, with a way on', async () => {
    const socket = await connect();
    act(() => {
      socket.accept();
      socket.text({ error: 'RDP login failed: wrong user name or password' });
      socket.finish(4502, '');
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not sign in to the host');
    expect(alert.textContent).toContain('RDP login failed: wrong user name or password');
    expect(rfbs).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Connect again' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to tunnels' }));
    expect(await screen.findByText('Tunnels screen')).toBeTruthy();
  });

  it('shows an administrator’s termination reason prominently', async () => {
    const socket = await connect();
    await ready(socket);
    act(() => socket.finish(4001, 'Terminated by root@example.test: audit in progress'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('An administrator ended this session');
    expect(screen.getByTestId('desktop-end-reason').textContent).toBe(
      'Terminated by root@example.test: audit in progress',
    );
    expect(screen.queryByRole('button', { name: 'Disconnect' })).toBeNull();
  });

  it.each([
    [4003, 'Your access was withdrawn', 'Back to tunnels'],
    [4403, 'You may not open this desktop', 'Back to tunnels'],
    [4503, 'This server cannot show desktops', 'Back to tunnels'],
    [1001, 'The Gatehouse server is restarting', 'Connect again'],
    [1000, 'The desktop session ended', 'Connect again'],
    [1006, 'The connection was lost', 'Connect again'],
  ])('close %i reads “%s” with “%s”', async (code, title, action) => {
    const socket = await connect();
    await ready(socket);
    act(() => socket.finish(code, ''));
    expect((await screen.findByRole('alert')).textContent).toContain(title);
    expect(screen.getByRole(action.startsWith('Back') ? 'link' : 'button', { name: action })).toBeTruthy();
  });

  it('offers no reconnect where only someone else can help', async () => {
    const socket = await connect();
    act(() => socket.finish(4403, ''));
    await screen.findByRole('alert');
    expect(screen.queryByRole('button', { name: 'Connect again' })).toBeNull();
  });

  it('asks to sign in again on 4401, and signs out', async () => {
    const socket = await connect();
    act(() => {
      socket.accept();
      socket.text({ error: 'Your session expired: sign in again' });
      socket.finish(4401, '');
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Your session expired: sign in again');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(getSession().token).toBeNull();
  });

  it('names the package the server lacks (4503, in its words)', async () => {
    const socket = await connect();
    act(() => {
      socket.accept();
      socket.text({ error: 'Install freerdp2-x11 and x11vnc on the Gatehouse server' });
      socket.finish(4503, '');
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Install freerdp2-x11 and x11vnc on the Gatehouse server',
    );
  });

  it('disconnects only after confirming', async () => {
    const socket = await connect();
    const rfb = await ready(socket);
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(rfb.disconnect).not.toHaveBeenCalled();
    // The rest of the page is hidden from assistive tech until the dialog has gone.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    expect(rfb.disconnect).toHaveBeenCalled();
    expect(socket.closedByClient).toBe(true);
    expect((await screen.findByRole('alert')).textContent).toContain('Disconnected');
  });

  it('sends Ctrl+Alt+Del and clipboard text in full Unicode beside RFB, and shows what the desktop copied', async () => {
    const socket = await connect();
    const rfb = await ready(socket);
    fireEvent.click(screen.getByRole('button', { name: 'Ctrl+Alt+Del' }));
    expect(rfb.sendCtrlAltDel).toHaveBeenCalledTimes(1);
    // The gateway sends the desktop's copy as a text frame; noVNC's own clipboard path is not used.
    act(() => rfb.emit('clipboard', { text: 'through RFB' }));
    act(() => socket.text({ clipboard: { text: 'copied over there: مرحبا 你好 👋 café' } }));
    // An empty copy is no copy.
    act(() => socket.text({ clipboard: { text: '' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Clipboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clipboard' });
    expect(within(dialog).getByText('copied over there: مرحبا 你好 👋 café')).toBeTruthy();
    expect(within(dialog).queryByText('through RFB')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Text for the desktop'), {
      target: { value: 'hello desktop 你好 👋' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send to desktop' }));
    expect(socket.sent.at(-1)).toBe(JSON.stringify({ clipboard: { text: 'hello desktop 你好 👋' } }));
    expect(rfb.clipboardPasteFrom).not.toHaveBeenCalled();
  });

  it('a clipboard text over the gateway’s bound is not sent, and the dialog says why', async () => {
    const socket = await connect();
    await ready(socket);
    fireEvent.click(screen.getByRole('button', { name: 'Clipboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clipboard' });
    const sentBefore = socket.sent.length;
    // 128,001 two-byte characters: 256,002 bytes of UTF-8, two over.
    fireEvent.change(within(dialog).getByLabelText('Text for the desktop'), {
      target: { value: 'é'.repeat(128_001) },
    });
    expect(
      within(dialog).getByText(
        'The text is 256,002 bytes of UTF-8: at most 256,000 bytes go to the desktop at a time.',
      ),
    ).toBeTruthy();
    const send = within(dialog).getByRole('button', { name: 'Send to desktop' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(send);
    expect(socket.sent).toHaveLength(sentBefore);
    // At the bound it goes.
    fireEvent.change(within(dialog).getByLabelText('Text for the desktop'), {
      target: { value: 'é'.repeat(128_000) },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send to desktop' }));
    expect(socket.sent).toHaveLength(sentBefore + 1);
  });

  it('a clipboard text the gateway refused: the user reads why, in their language', async () => {
    const socket = await connect();
    await ready(socket);
    act(() =>
      socket.text({
        clipboard_refused: 'This desktop’s definition lets no text into the desktop: nothing was sent.',
        code: 'not-allowed',
      }),
    );
    expect((await screen.findByText(/The gateway did not send the text to the desktop/)).textContent).toBe(
      "The gateway did not send the text to the desktop: this desktop's definition lets no text into the desktop.",
    );
    act(() => socket.text({ clipboard_refused: 'Too long.', code: 'too-long' }));
    expect(await screen.findByText(/at most 256,000 bytes of UTF-8 at a time/)).toBeTruthy();
    // A reason this console does not know: the gateway's own words.
    act(() => socket.text({ clipboard_refused: 'Some new reason.', code: 'sideways' }));
    expect(await screen.findByText(/Some new reason\./)).toBeTruthy();
  });

  it('clipboard off by the definition: no clipboard button, and a note says it is off', async () => {
    const socket = await connect();
    await ready(socket, { clipboard: 'off' });
    expect(screen.queryByRole('button', { name: 'Clipboard' })).toBeNull();
    expect(screen.getByText('Clipboard off').closest('[title]')?.getAttribute('title')).toContain(
      'the gateway enforces it',
    );
  });

  it('clipboard out of the desktop only: nothing to send, what the desktop copied shows, and why', async () => {
    const socket = await connect();
    await ready(socket, { clipboard: 'from-desktop' });
    act(() => socket.text({ clipboard: { text: 'copied over there' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Clipboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clipboard' });
    expect(within(dialog).getByText('copied over there')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Text for the desktop')).toBeNull();
    expect(within(dialog).getByText(/lets text come out of the desktop only/)).toBeTruthy();
  });

  it('clipboard into the desktop only: text can be sent, nothing copied there is shown, and why', async () => {
    const socket = await connect();
    const rfb = await ready(socket, { clipboard: 'to-desktop' });
    fireEvent.click(screen.getByRole('button', { name: 'Clipboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clipboard' });
    expect(within(dialog).queryByText('Copied on the desktop')).toBeNull();
    expect(within(dialog).getByText(/lets text go into the desktop only/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Text for the desktop'), { target: { value: 'hello' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send to desktop' }));
    expect(socket.sent.at(-1)).toBe(JSON.stringify({ clipboard: { text: 'hello' } }));
    expect(rfb.clipboardPasteFrom).not.toHaveBeenCalled();
  });

  it('a resize of the stage asks the gateway for the new size once it settles (debounced), never before ready', async () => {
    const observers: (() => void)[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly callback: () => void) {}
        observe() {
          observers.push(this.callback);
        }
        disconnect() {
          observers.splice(observers.indexOf(this.callback), 1);
        }
      },
    );
    const socket = await connect();
    expect(observers).toHaveLength(0);
    await ready(socket);
    expect(observers).toHaveLength(1);
    const target = screen.getByTestId('desktop-target');
    const resizeTo = (width: number, height: number) => {
      Object.defineProperty(target, 'clientWidth', { configurable: true, value: width });
      Object.defineProperty(target, 'clientHeight', { configurable: true, value: height });
      for (const observe of observers) observe();
    };
    const resizes = () => socket.sent.slice(1).map((frame) => JSON.parse(String(frame)) as unknown);
    // The sidebar closes, then the window is dragged: three changes within the debounce.
    resizeTo(1500, 700);
    resizeTo(1600, 760);
    resizeTo(1700, 800);
    await new Promise((r) => setTimeout(r, 300));
    expect(resizes()).toEqual([]);
    await waitFor(() => expect(resizes()).toEqual([{ resize: { width: 1700, height: 800 } }]));
    // The same size again asks nothing; a size beyond the limits is asked within them.
    resizeTo(1700, 800);
    resizeTo(9000, 100);
    await waitFor(() => expect(resizes()).toHaveLength(2));
    expect(resizes()[1]).toEqual({ resize: { width: 3840, height: 240 } });
    await new Promise((r) => setTimeout(r, 700));
    expect(resizes()).toHaveLength(2);
  });

  it('cancels a connection that is still opening', async () => {
    const socket = await connect();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(socket.closedByClient).toBe(true);
    expect(await screen.findByRole('button', { name: 'Connect' })).toBeTruthy();
  });

  it('says so when the definition is not one the user may use', async () => {
    fakeServer({ 'GET api/tunneldefinition': [200, { ssh: [], rdp: [], generic: [], agent: [] }] });
    renderAt(`/desktop/${DEF}`);
    expect(await screen.findByText('This RDP tunnel does not exist, or it is not one you may use.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
  });

  it('closes the desktop when the page goes away', async () => {
    const socket = await connect();
    const rfb = await ready(socket);
    cleanup();
    expect(rfb.disconnect).toHaveBeenCalled();
    expect(socket.closedByClient).toBe(true);
  });
});

describe('WatchPage', () => {
  it('watches view only: token alone in the first frame, the banner, no input buttons', async () => {
    renderAt(`/desktop/watch/${REC}`);
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = FakeSocket.all[0] as FakeSocket;
    expect(socket.url).toBe(`ws://localhost:3000/api/desktop/watch?recording=${REC}`);
    act(() => socket.accept());
    expect(socket.hello).toEqual({ token: 'session-token-1' });
    act(() => socket.text({ ready: true, width: 1280, height: 800 }));
    await screen.findByRole('button', { name: 'Stop watching' });
    expect(rfbs.at(-1)).toMatchObject({ viewOnly: true, scaleViewport: true, clipViewport: false });
    expect(rfbs.at(-1)?.channel).toBe(socket);
    expect(screen.getByText('Watching live (view only)')).toBeTruthy();
    expect(screen.queryByText('This session is recorded')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ctrl+Alt+Del' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clipboard' })).toBeNull();
  });

  it('shows the server’s refusal for a session that is not a gateway desktop', async () => {
    renderAt(`/desktop/watch/${REC}`);
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = FakeSocket.all[0] as FakeSocket;
    act(() => {
      socket.accept();
      socket.text({ error: 'This session is not a gateway desktop: replay its video when it ends' });
      socket.finish(4400, '');
    });
    expect((await screen.findByRole('alert')).textContent).toContain('This session is not a gateway desktop');
    fireEvent.click(screen.getByRole('button', { name: 'Watch again' }));
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('says the session ended when it does', async () => {
    renderAt(`/desktop/watch/${REC}`);
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = FakeSocket.all[0] as FakeSocket;
    act(() => {
      socket.accept();
      socket.text({ ready: true, width: 1280, height: 800 });
    });
    await screen.findByRole('button', { name: 'Stop watching' });
    act(() => socket.finish(1000, ''));
    expect((await screen.findByRole('alert')).textContent).toContain('The session ended');
    expect(screen.getByRole('link', { name: 'Back to sessions' })).toBeTruthy();
  });
});
