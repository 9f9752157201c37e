// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { SnackbarProvider } from '../../../components/snackbar/snackbar-provider';
import { AddSshKeyDialog } from './add-ssh-key-dialog';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleExampleExampleExampleExampleExample me@laptop';

function renderDialog(status: number, body: unknown) {
  const fetch = vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(new Response(JSON.stringify(body), { status })),
  );
  vi.stubGlobal('fetch', fetch);
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <SnackbarProvider>
        <AddSshKeyDialog open onClose={onClose} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { fetch, onClose };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const add = () => screen.getByRole('button', { name: 'Add key' });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AddSshKeyDialog', () => {
  it('keeps Add key disabled until both name and key are given', () => {
    renderDialog(201, {});
    expect(add()).toHaveProperty('disabled', true);
    type('Name', 'Laptop');
    expect(add()).toHaveProperty('disabled', true);
    type('Public key', KEY);
    expect(add()).toHaveProperty('disabled', false);
  });

  it('shows the server’s reason when it refuses the key, and stays open', async () => {
    const reason = 'RSA keys need at least 2048 bits; ssh-ed25519 is better still';
    const { onClose } = renderDialog(400, { statusCode: 400, error: 'Bad Request', message: reason });
    type('Name', 'Old key');
    type('Public key', 'ssh-rsa AAAAB3Nza short');
    fireEvent.click(add());
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends the trimmed name and key, then closes with a confirmation', async () => {
    const { fetch, onClose } = renderDialog(201, { key: {}, message: 'SSH key added' });
    type('Name', ' Laptop ');
    type('Public key', `\n${KEY}\n`);
    fireEvent.click(add());
    expect(await screen.findByText('SSH key Laptop added')).toBeTruthy();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ name: 'Laptop', public_key: KEY });
  });
});
