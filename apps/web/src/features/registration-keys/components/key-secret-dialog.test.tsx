// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../components/testing/render-with-providers';
import { formatDateTime } from '../../../lib/dates';
import { KeySecretDialog } from './key-secret-dialog';

const generated = {
  uuid: '6f1c1f3e-8d7e-4c5b-9a51-1d2f3e4a5b6c',
  description: 'Berlin site',
  created: '2026-01-01T00:00:00.000Z',
  created_by: 'admin@example.test',
  last_used_at: null,
  expires_at: '2026-01-08T00:00:00.000Z',
  uses: 5,
  uses_left: 5,
  key: 'ghk_secret-value',
  message: 'Registration key created.',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('KeySecretDialog', () => {
  it('shows the secret once with a warning and the agent command for this console', () => {
    renderWithProviders(<KeySecretDialog generated={generated} onClose={vi.fn()} />);
    expect(screen.getByLabelText('Registration key')).toHaveProperty('value', 'ghk_secret-value');
    expect(screen.getByLabelText('Registration key')).toHaveProperty('readOnly', true);
    expect(screen.getByText(/It is not shown again/)).toBeTruthy();
    expect(screen.getByText(/^Hosts it may enrol: 5\. It stops working on /).textContent).toContain(
      formatDateTime('2026-01-08T00:00:00.000Z'),
    );
    expect(screen.getByLabelText('Agent command')).toHaveProperty(
      'value',
      `npx gatehouse-agent --server ${window.location.origin} --key ghk_secret-value --state-dir /var/lib/gatehouse-agent`,
    );
  });

  it('copies the key to the clipboard and says so', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithProviders(<KeySecretDialog generated={generated} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(await screen.findByText('Copied to the clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('ghk_secret-value');
  });

  it('says to copy by hand when the browser refuses', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    renderWithProviders(<KeySecretDialog generated={generated} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy command' }));
    expect(await screen.findByText(/Select the text and copy it yourself/)).toBeTruthy();
  });

  it('shows nothing when there is no new key', () => {
    renderWithProviders(<KeySecretDialog generated={null} onClose={vi.fn()} />);
    expect(screen.queryByLabelText('Registration key')).toBeNull();
  });
});
