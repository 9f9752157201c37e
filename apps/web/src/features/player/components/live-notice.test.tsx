// @vitest-environment happy-dom
import { SESSION_EVENTS } from '@gatehouse/contracts';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18next } from '../../../lib/i18n';
import { loadCatalogue } from '../../../lib/catalogues';
import { LiveWatch, type LiveSocket } from '../live/live-watch';
import type { TerminalSink } from '../replay/replay-engine';
import { LiveNotice } from './live-notice';

const id = '00000000-0000-4000-8000-0000000000aa';

/** A console socket the test drives: it delivers the server's events and keeps what was sent. */
class FakeSocket implements LiveSocket {
  readonly sent: { event: string; payload: unknown }[] = [];
  private readonly listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  on(event: string, listener: (...args: unknown[]) => void) {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return () => set.delete(listener);
  }
  emit(event: string, payload: unknown) {
    this.sent.push({ event, payload });
  }
  close() {}
  /** The server sends an event. */
  deliver(event: string, payload?: unknown) {
    act(() => {
      for (const listener of this.listeners.get(event) ?? []) listener(payload);
    });
  }
  attaches() {
    return this.sent.filter((m) => m.event === SESSION_EVENTS.attach).length;
  }
}

/** A terminal that keeps what was written to it. */
function sink(): TerminalSink & { text: string } {
  const s = {
    text: '',
    write(data: string) {
      s.text += data;
    },
    reset() {
      s.text = '';
    },
    resize() {},
  };
  return s;
}

function LiveHarness({ watch }: { watch: LiveWatch }) {
  const state = useSyncExternalStore(watch.subscribe, watch.getState);
  return (
    <>
      <div data-testid="status">{state.status}</div>
      <LiveNotice state={state} onReattach={watch.reattach} />
    </>
  );
}

function watchWith(socket: FakeSocket) {
  const watch = new LiveWatch(() => socket, id, { cols: 80, rows: 24, hasTerminal: true });
  const terminal = sink();
  watch.start(terminal);
  render(<LiveHarness watch={watch} />);
  socket.deliver('connect');
  socket.deliver(SESSION_EVENTS.output, { recording_id: id, seq: 0, upto: 2, events: [[0, 'o', 'before ']] });
  return { watch, terminal };
}

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

describe('the live view when the server drops a watcher that fell behind', () => {
  it('says why and offers Reattach, which attaches again and goes live with the catch-up', () => {
    const socket = new FakeSocket();
    const { terminal } = watchWith(socket);
    expect(screen.getByTestId('status').textContent).toBe('live');
    expect(socket.attaches()).toBe(1);
    socket.deliver(SESSION_EVENTS.watchDropped, {
      recording_id: id,
      message: 'You fell behind the live output and were detached; reattach to continue.',
    });
    expect(screen.getByTestId('status').textContent).toBe('dropped');
    expect(screen.getByRole('alert').textContent).toContain(
      'You fell behind the live output and were detached; reattach to continue.',
    );
    // Nothing attaches by itself, not even a reconnection: the user chooses.
    socket.deliver('connect');
    expect(socket.attaches()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Reattach' }));
    expect(socket.attaches()).toBe(2);
    expect(socket.sent.at(-1)).toEqual({ event: SESSION_EVENTS.attach, payload: { recording_id: id, replay: true } });
    expect(screen.getByTestId('status').textContent).toBe('connecting');
    expect(screen.queryByRole('alert')).toBeNull();
    socket.deliver(SESSION_EVENTS.output, { recording_id: id, seq: 0, upto: 9, events: [[0, 'o', 'the tail']] });
    expect(screen.getByTestId('status').textContent).toBe('live');
    expect(terminal.text).toBe('the tail');
    socket.deliver(SESSION_EVENTS.output, { recording_id: id, seq: 10, events: [[1, 'o', ', live']] });
    expect(terminal.text).toBe('the tail, live');
  });

  it('ignores a drop of another session', () => {
    const socket = new FakeSocket();
    watchWith(socket);
    socket.deliver(SESSION_EVENTS.watchDropped, { recording_id: `${id.slice(0, -2)}bb`, message: 'other' });
    expect(screen.getByTestId('status').textContent).toBe('live');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says it in Arabic too', async () => {
    i18next.addResourceBundle('ar', 'translation', await loadCatalogue('ar'));
    await act(() => i18next.changeLanguage('ar'));
    const socket = new FakeSocket();
    watchWith(socket);
    socket.deliver(SESSION_EVENTS.watchDropped, { recording_id: id, message: 'english from the server' });
    expect(screen.getByRole('alert').textContent).toContain('تأخّرت عن المخرجات المباشرة');
    expect(screen.getByRole('button', { name: 'إعادة الإرفاق' })).toBeTruthy();
  });
});
