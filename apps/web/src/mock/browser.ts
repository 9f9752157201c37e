import { setupWorker } from 'msw/browser';
import { mockWorkerPath } from './worker';
import { createMockApi } from './handlers';

/**
 * Starts the mock API in this page: msw's service worker hands the console's calls to the
 * handlers, which answer from generated data. Loaded (with msw) only when mock data is on.
 * Anything else (the console's files, the socket) goes to the network as usual.
 */
export async function startMockApi(): Promise<void> {
  const base = new URL('.', document.baseURI);
  const { handlers } = createMockApi({ base: base.href });
  await setupWorker(...handlers).start({
    serviceWorker: { url: mockWorkerPath(), options: { scope: base.pathname } },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
}
