// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { DownloadButton } from './download-button';

const id = '7b0e4a52-25a8-4f43-9a53-0d3f1b4b2a11';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('DownloadButton in the player', () => {
  it('downloads the evidence bundle through a ticket link, with how to verify it in its tooltip', async () => {
    fakeServer({
      [`POST api/recording/${id}/ticket`]: [200, { ticket: 'tick.et', expires_at: '2026-03-01T10:00:00.000Z' }],
    });
    const hrefs: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      hrefs.push(this.href);
    });
    renderWithProviders(<DownloadButton recordingId={id} kind="bundle" />);
    const button = screen.getByRole('button', { name: 'Download evidence bundle' });
    fireEvent.mouseOver(button);
    expect((await screen.findByRole('tooltip')).textContent).toContain(
      `npx gatehouse verify gatehouse-session-${id}.tar --key`,
    );
    fireEvent.click(button);
    await waitFor(() => expect(hrefs).toHaveLength(1));
    // Always an attachment: no download=true, only the ticket.
    expect(hrefs[0]).toMatch(new RegExp(`/api/recording/${id}/bundle\\?ticket=tick\\.et$`));
  });
});
