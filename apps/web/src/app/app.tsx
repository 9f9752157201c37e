import type { QueryClient } from '@tanstack/react-query';
import { AppProviders } from './providers/app-providers';
import { AppRouter } from './router/router';

/** The console: providers around the hash router (on a query cache main.tsx may have filled already). */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <AppRouter />
    </AppProviders>
  );
}
