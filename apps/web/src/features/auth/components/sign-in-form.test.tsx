// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../lib/i18n';
import { SignInForm } from './sign-in-form';

function renderForm() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <SignInForm />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const type = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SignInForm', () => {
  it('catches a malformed email before any call', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderForm();
    type(/^email/i, 'not-an-email');
    type(/^password/i, 'whatever1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('The Email you entered is not a valid format!')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks for both fields when they are empty', () => {
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Please enter your Email!')).toBeTruthy();
    expect(screen.getByText('Please enter your Password!')).toBeTruthy();
  });

  it('shows the email-related server error first', async () => {
    const errors = ['Invalid password', 'Invalid email or password.'];
    const body = { statusCode: 401, error: 'Unauthorized', message: 'Sign-in failed', response: { errors } };
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status: 401 }))),
    );
    renderForm();
    type(/^email/i, 'admin@example.test');
    type(/^password/i, 'wrong-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email or password.')).toBeTruthy();
  });
});
