// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense } from 'react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

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

describe('lazyPage', () => {
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
