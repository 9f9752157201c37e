// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { BundleDownloadButton } from './bundle-download-button';

const id = '7b0e4a52-25a8-4f43-9a53-0d3f1b4b2a11';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('BundleDownloadButton', () => {
  it('downloads gatehouse-session-<id>.tar through a ticket link and says how to verify it', async () => {
    const seen = fakeServer({
      [`POST api/recording/${id}/ticket`]: [200, { ticket: 'tick.et', expires_at: '2026-03-01T10:00:00.000Z' }],
    });
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    renderWithProviders(<BundleDownloadButton recordingId={id} />);
    const button = screen.getByRole('button', { name: 'Download evidence bundle' });
    // The help is the button's description (the tooltip's text), read by screen readers too.
    fireEvent.mouseOver(button);
    const help = await screen.findByRole('tooltip');
    expect(help.textContent).toContain(
      `npx gatehouse verify gatehouse-session-${id}.tar --key <fingerprint from Settings>`,
    );
    fireEvent.click(button);
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([`POST api/recording/${id}/ticket`]);
    expect(clicked[0]!.href).toMatch(new RegExp(`/api/recording/${id}/bundle\\?ticket=tick\\.et$`));
    expect(clicked[0]!.download).toBe(`gatehouse-session-${id}.tar`);
  });

  it('tells why when no download can start', async () => {
    fakeServer({
      [`POST api/recording/${id}/ticket`]: [404, { message: 'There is no session with that id that you may watch.' }],
    });
    renderWithProviders(<BundleDownloadButton recordingId={id} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download evidence bundle' }));
    expect(
      await screen.findByText(
        'Could not download the evidence bundle: There is no session with that id that you may watch.',
      ),
    ).toBeTruthy();
  });
});
