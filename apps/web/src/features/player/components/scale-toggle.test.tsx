// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../components/testing/render-with-providers';
import { TerminalScaleToggle, usePlayerScale } from './scale-toggle';

function Harness() {
  const [scale, setScale] = usePlayerScale();
  return (
    <>
      <TerminalScaleToggle value={scale} onChange={setScale} />
      <output>{scale}</output>
    </>
  );
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('TerminalScaleToggle', () => {
  it('is a labelled pair of buttons, Fit first, and keeps the choice for this browser', () => {
    renderWithProviders(<Harness />);
    const group = screen.getByRole('group', { name: 'Terminal size' });
    expect(group).toBeTruthy();
    const fit = screen.getByRole('button', { name: 'Fit' });
    const actual = screen.getByRole('button', { name: 'Actual size' });
    expect(fit.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(actual);
    expect(actual.getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem('playerScale')).toBe('actual');
    // A second click on the chosen one leaves it chosen: one of the two always is.
    fireEvent.click(actual);
    expect(screen.getByRole('status').textContent).toBe('actual');
    cleanup();
    renderWithProviders(<Harness />);
    expect(screen.getByRole('button', { name: 'Actual size' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('reads anything else stored as Fit', () => {
    localStorage.setItem('playerScale', '<script>');
    renderWithProviders(<Harness />);
    expect(screen.getByRole('button', { name: 'Fit' }).getAttribute('aria-pressed')).toBe('true');
  });
});
