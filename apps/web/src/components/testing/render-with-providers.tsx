import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import '../../lib/i18n';
import { SnackbarProvider } from '../snackbar/snackbar-provider';

/** Renders a component as the console would: query cache (no retries), snackbars and messages. */
export function renderWithProviders(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SnackbarProvider>{ui}</SnackbarProvider>
    </QueryClientProvider>,
  );
}

/** One request the fake server saw. */
export interface SeenRequest {
  method: string;
  url: string;
  body: unknown;
}

/** An answer of the fake server: a status and a JSON body. */
export type FakeAnswer = [status: number, body: unknown];

/**
 * Replaces fetch with a fake server: `answer` maps "METHOD path" (without query) to a reply;
 * anything else answers 404. Returns the requests seen, in order.
 */
export function fakeServer(answer: Record<string, FakeAnswer>): SeenRequest[] {
  const seen: SeenRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      seen.push({ method, url: input, body });
      const [status, reply] = answer[`${method} ${input.split('?')[0] ?? ''}`] ?? [404, { message: 'Not found' }];
      return Promise.resolve(new Response(JSON.stringify(reply), { status }));
    }),
  );
  return seen;
}
