// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { SnackbarProvider } from '../../../components/snackbar/snackbar-provider';
import { ChangePasswordDialog } from './change-password-dialog';

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <SnackbarProvider>
        <ChangePasswordDialog open onClose={onClose} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { onClose };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => screen.getByRole('button', { name: 'Save' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ChangePasswordDialog', () => {
  it('keeps Save disabled and explains why until the form is valid', () => {
    renderDialog();
    expect(save()).toHaveProperty('disabled', true);
    type('New Password', 'short');
    expect(screen.getAllByText('Passwords need to be at least 8 characters long').length).toBeGreaterThan(0);
    type('New Password', 'long-enough-1');
    type('Confirm New Password', 'long-enough-2');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    type('Confirm New Password', 'long-enough-1');
    expect(save()).toHaveProperty('disabled', true);
    type('Your Current Password', 'current');
    expect(save()).toHaveProperty('disabled', false);
  });

  it('shows each server error on its own', async () => {
    const errors = ['Your current password is not right', 'Pick a password you have not used'];
    const body = { statusCode: 400, error: 'Bad Request', message: errors.join(' '), errors };
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status: 400 }))),
    );
    renderDialog();
    type('New Password', 'long-enough-1');
    type('Confirm New Password', 'long-enough-1');
    type('Your Current Password', 'current');
    fireEvent.click(save());
    expect(await screen.findByText(errors[0]!)).toBeTruthy();
    expect(screen.getByText(errors[1]!)).toBeTruthy();
  });
});
