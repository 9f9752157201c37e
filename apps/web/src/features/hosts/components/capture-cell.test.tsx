// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../components/testing/render-with-providers';
import { CaptureStatusCell } from './capture-cell';

afterEach(cleanup);

describe('CaptureStatusCell', () => {
  it('says how many sessions are filmed now', () => {
    renderWithProviders(<CaptureStatusCell capture={{ filming: 2, last_error: null, last_error_at: null }} />);
    expect(screen.getByText('Filming 2 sessions')).toBeTruthy();
    cleanup();
    renderWithProviders(<CaptureStatusCell capture={{ filming: 1, last_error: null, last_error_at: null }} />);
    expect(screen.getByText('Filming 1 session')).toBeTruthy();
  });

  it('says Not filming, with the last capture error as text and its time in a tooltip', async () => {
    const error = 'ffmpeg was not found <b>(/usr/bin/ffmpeg)</b>';
    renderWithProviders(
      <CaptureStatusCell capture={{ filming: 0, last_error: error, last_error_at: '2026-11-26T06:00:00.000Z' }} />,
    );
    expect(screen.getByText('Not filming')).toBeTruthy();
    const line = screen.getByText(`Last error: ${error}`);
    // Markup from an agent stays text.
    expect(line.querySelector('b')).toBeNull();
    fireEvent.mouseOver(line);
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', expect.stringContaining(error));
  });

  it('reads Not filming for an older server that answers no capture', () => {
    renderWithProviders(<CaptureStatusCell capture={undefined} />);
    expect(screen.getByText('Not filming')).toBeTruthy();
  });
});
