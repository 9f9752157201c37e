// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../components/testing/render-with-providers';
import { NotFilmedAlert, NotFilmedChip } from './not-filmed';

afterEach(cleanup);

describe('not filmed RDP sessions', () => {
  it('the detail warns "Not filmed: <reason>", the reason as text', () => {
    renderWithProviders(
      <NotFilmedAlert row={{ video_state: 'not-filmed', video_note: 'recording is off for this host <script>' }} />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Not filmed: recording is off for this host <script>');
    expect(alert.querySelector('script')).toBeNull();
    expect(alert.className).toMatch(/Warning/);
  });

  it('the list shows a chip whose tooltip says why', async () => {
    renderWithProviders(<NotFilmedChip row={{ video_state: 'not-filmed', video_note: 'ffmpeg died' }} />);
    const chip = screen.getByText('Not filmed');
    fireEvent.mouseOver(chip);
    expect((await screen.findByRole('tooltip')).textContent).toBe('ffmpeg died');
  });

  it('shows nothing for filmed sessions, or answers from an older server', () => {
    const { container } = renderWithProviders(
      <>
        <NotFilmedAlert row={{ video_state: 'filming', video_note: 'display :10' }} />
        <NotFilmedChip row={{ video_state: null, video_note: null }} />
        <NotFilmedChip row={{}} />
      </>,
    );
    expect(container.textContent).toBe('');
  });
});
