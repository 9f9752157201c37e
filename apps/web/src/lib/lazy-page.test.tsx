// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense, useState } from 'react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { within } from '../app/router/preload-route';
import { lazyPage, pageLoader } from './lazy-page';

afterEach(cleanup);

/** A screen that counts its mounts (a remount would lose what the user typed or chose). */
let mounts = 0;
function Counter() {
  const [mountNumber] = useState(() => (mounts += 1));
  return <h1>Sessions screen, mount {mountNumber}</h1>;
}

/** An import() stand-in whose module arrives when the test says. */
function deferredModule() {
  let arrive: (module: { Counter: typeof Counter }) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const importer = vi.fn(
    () =>
      new Promise<{ Counter: typeof Counter }>((resolve, reject) => {
        arrive = resolve;
        fail = reject;
      }),
  );
  return { importer, arrive: (m = { Counter }) => arrive(m), fail: (e: Error) => fail(e) };
}

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p>failed</p> : this.props.children;
  }
}

function show(Page: ReturnType<typeof lazyPage>) {
  render(
    <Boundary>
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>
    </Boundary>,
  );
}

describe('lazyPage: loading and a chunk that is gone', () => {
  afterEach(() => {
    cleanup();
    sessionStorage.clear();
    vi.restoreAllMocks();
  });

  it('renders the named export once its chunk arrives', async () => {
    show(lazyPage(() => Promise.resolve({ HostsPage: () => <h1>Hosts</h1> }), 'HostsPage'));
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Hosts' })).toBeTruthy();
  });

  it('reloads the page once when a chunk is gone, and shows the error the second time', async () => {
    const reload = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the boundary's catch
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const missing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    show(lazyPage(missing, 'GonePage'));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(screen.getByText('loading')).toBeTruthy();
    cleanup();
    show(lazyPage(missing, 'GonePage'));
    expect(await screen.findByText('failed')).toBeTruthy();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('pageLoader', () => {
  it('shares one load between the preload and the route, and tells when the module has come', async () => {
    const chunk = deferredModule();
    const load = pageLoader(chunk.importer);
    const first = load();
    const second = load();
    expect(chunk.importer).toHaveBeenCalledTimes(1);
    expect(load.loaded()).toBeUndefined();
    chunk.arrive();
    await expect(first).resolves.toEqual({ Counter });
    await expect(second).resolves.toEqual({ Counter });
    expect(load.loaded()).toEqual({ Counter });
  });

  it('forgets a failed load, so a later visit asks again', async () => {
    const chunk = deferredModule();
    const load = pageLoader(chunk.importer);
    const failed = load();
    chunk.fail(new Error('chunk gone'));
    await expect(failed).rejects.toThrow('chunk gone');
    expect(load.loaded()).toBeUndefined();
    const retry = load();
    expect(chunk.importer).toHaveBeenCalledTimes(2);
    chunk.arrive();
    await expect(retry).resolves.toEqual({ Counter });
  });
});

describe('lazyPage', () => {
  it('renders a screen whose chunk has already come in the same render, without the loading indicator', async () => {
    const chunk = deferredModule();
    const load = pageLoader(chunk.importer);
    const Page = lazyPage(load, 'Counter');
    const preload = load();
    chunk.arrive();
    await preload;
    mounts = 0;
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Page />
      </Suspense>,
    );
    // Synchronously: no fallback was ever committed.
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Sessions screen, mount 1' })).toBeTruthy();
  });

  it('shows the loading indicator while the chunk comes, then the screen, mounted once', async () => {
    const chunk = deferredModule();
    const load = pageLoader(chunk.importer);
    const Page = lazyPage(load, 'Counter');
    mounts = 0;
    const view = render(
      <Suspense fallback={<p>Loading…</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => {
      chunk.arrive();
      await load();
    });
    expect(await screen.findByRole('heading', { name: 'Sessions screen, mount 1' })).toBeTruthy();
    // The module is now known to the loader; the mounted screen keeps its lazy form and is not remounted.
    view.rerender(
      <Suspense fallback={<p>Loading…</p>}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByRole('heading', { name: 'Sessions screen, mount 1' })).toBeTruthy();
    expect(mounts).toBe(1);
  });
});

describe('within', () => {
  it('settles when the promise does, or after the time, whichever is first; a rejection settles it too', async () => {
    vi.useFakeTimers();
    try {
      let settled = false;
      void within(new Promise(() => undefined), 400).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(399);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      await expect(within(Promise.reject(new Error('chunk gone')), 400)).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
