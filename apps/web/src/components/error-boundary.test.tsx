// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../lib/i18n';
import { ErrorBoundary } from './error-boundary';

function Screen({ broken }: { broken: boolean }) {
  if (broken) throw new Error('render failed');
  return <h1>Users screen</h1>;
}

afterEach(cleanup);

describe('the error boundary around the routes', () => {
  it('shows the error screen after a render error, and tries again once the path changes', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const view = render(
        <ErrorBoundary resetKey="/recordings">
          <Screen broken />
        </ErrorBoundary>,
      );
      expect(screen.getByRole('alert').textContent).toMatch(/reload/i);
      // The same path again (a re-render): still the error screen, the broken screen is not retried.
      view.rerender(
        <ErrorBoundary resetKey="/recordings">
          <Screen broken={false} />
        </ErrorBoundary>,
      );
      expect(screen.queryByRole('heading', { name: 'Users screen' })).toBeNull();
      view.rerender(
        <ErrorBoundary resetKey="/users">
          <Screen broken={false} />
        </ErrorBoundary>,
      );
      expect(screen.getByRole('heading', { name: 'Users screen' })).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      quiet.mockRestore();
    }
  });
});
