// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { SnackbarProvider } from '../../../components/snackbar/snackbar-provider';
import { AddUserDialog } from './add-user-dialog';

function renderDialog() {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <SnackbarProvider>
        <AddUserDialog open onClose={onClose} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { onClose };
}

const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Add user' }));
const answer = (status: number, body: unknown) =>
  vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(new Response(JSON.stringify(body), { status })));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AddUserDialog', () => {
  it('explains each rule before any call', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderDialog();
    type(/^Email/, 'not-an-email');
    type(/^Password/, 'short');
    type(/^Confirm password/, 'other');
    submit();
    expect(screen.getByText('The Email you entered is not a valid format!')).toBeTruthy();
    expect(screen.getAllByText('Passwords need to be at least 8 characters long')).toHaveLength(2);
    type(/^Password/, 'long-enough-1');
    type(/^Confirm password/, 'long-enough-2');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends email, name and password, then closes with a confirmation', async () => {
    const fetch = answer(201, { user: {}, message: 'User created' });
    vi.stubGlobal('fetch', fetch);
    const { onClose } = renderDialog();
    type(/^Email/, ' new.person@example.test ');
    type(/^Name/, 'New Person');
    type(/^Password/, 'long-enough-1');
    type(/^Confirm password/, 'long-enough-1');
    submit();
    expect(await screen.findByText('User new.person@example.test created')).toBeTruthy();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('api/user');
    expect(JSON.parse(init!.body as string)).toEqual({
      email: 'new.person@example.test',
      name: 'New Person',
      password: 'long-enough-1',
    });
  });

  it('says the user exists already on a 409 and stays open', async () => {
    vi.stubGlobal('fetch', answer(409, { statusCode: 409, error: 'Conflict', message: 'duplicate' }));
    const { onClose } = renderDialog();
    type(/^Email/, 'taken@example.test');
    type(/^Password/, 'long-enough-1');
    type(/^Confirm password/, 'long-enough-1');
    submit();
    expect(await screen.findByText('The user you are trying to add has already been added.')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});
