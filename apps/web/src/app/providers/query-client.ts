import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-error';

/** The query cache: client errors (4xx) are not retried; others twice. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      },
      mutations: { retry: false },
    },
  });
}
