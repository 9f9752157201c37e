/** The service worker script msw answers from, beside index.html (public/mockServiceWorker.js). */
export const MOCK_WORKER_FILE = 'mockServiceWorker.js';

/** The worker's path beside the console's page (the server may host the console under any path). */
export function mockWorkerPath(): string {
  return new URL(MOCK_WORKER_FILE, document.baseURI).pathname;
}

/**
 * Unregisters the mock service worker, so nothing stands between the console and the server once
 * mock data is off (a worker left registered would only pass requests through, but slower).
 */
export async function retireMockWorker(): Promise<void> {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!container) return;
  const registrations = await container.getRegistrations();
  const ours = registrations.filter((registration) =>
    [registration.active, registration.waiting, registration.installing].some((worker) =>
      worker?.scriptURL.endsWith(`/${MOCK_WORKER_FILE}`),
    ),
  );
  await Promise.all(ours.map((registration) => registration.unregister()));
}
