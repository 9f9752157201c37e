import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { AuthorizeHost } from '../../components/authorize-dialog/authorize-host';
import { ErrorBoundary } from '../../components/error-boundary';
import { ExpiryNotices } from '../../features/settings/components/expiry-notices';
import { SnackbarProvider } from '../../components/snackbar/snackbar-provider';
import { createQueryClient } from './query-client';
import { LiveUpdates } from './live-updates';
import { SessionEffects } from './session-effects';
import { ThemeSettingsProvider } from './theme-settings-provider';

/**
 * Theme, query cache, snackbars, the Authorize dialog, the licence and certificate notices and the
 * error boundary around the whole console.
 */
export function AppProviders({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <ThemeSettingsProvider>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <SnackbarProvider>
            <SessionEffects />
            <LiveUpdates />
            <AuthorizeHost />
            <ExpiryNotices />
            {children}
          </SnackbarProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </ThemeSettingsProvider>
  );
}
