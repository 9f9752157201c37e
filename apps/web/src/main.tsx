// First: no schema may be built before zod is told not to probe for eval (lib/zod-jitless.ts).
import './lib/zod-jitless';
import '@fontsource/poppins/300.css';
import '@fontsource/poppins/400.css';
import '@fontsource/poppins/500.css';
import '@fontsource/poppins/600.css';
import { i18nReady } from './lib/i18n';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/providers/query-client';
import { preloadRoute, within } from './app/router/preload-route';
import { captureInitialPath } from './app/router/initial-path';
import { openingThemeSettings } from './app/theme/theme-storage';
import { MockDataBanner } from './components/mock-data-banner';
import { loadRtlCache } from './lib/rtl-cache';
import { isMockDataOn } from './mock/flag';
import { retireMockWorker } from './mock/worker';

// The settings the console opens with: saved, with the address's query over them. The page's canvas
// is already in their mode (public/page-canvas.js, in <head>); ThemeSettingsProvider keeps it so.
const opening = openingThemeSettings();
// Before the router starts redirecting, so a deep link survives the trip through /signin.
captureInitialPath();
// The screen opened (its chunk, its first call) starts loading now, beside the language and the first render.
const queryClient = createQueryClient();
const routeReady = isMockDataOn() ? undefined : preloadRoute(window.location.hash, queryClient);

/**
 * With the local flag useMockData on (spec §2.5, §9), starts the mock API before the first call
 * and answers its on-screen mark, rendered beside the app in every layout. msw and the mock data
 * are fetched only then (import()), so they stay out of the initial bundle; the mark is small and
 * bundled, so mock data never shows unlabelled. If the mock API cannot start (no service workers,
 * as over plain http to a remote host), the mark says so and the console talks to the server.
 */
async function startMockData(): Promise<ReactNode> {
  if (!isMockDataOn()) {
    // A worker left from mock data earlier goes, so nothing sits between the console and the server.
    void retireMockWorker().catch(() => undefined);
    return null;
  }
  try {
    const { startMockApi } = await import('./mock/browser');
    await startMockApi();
    return <MockDataBanner />;
  } catch (error) {
    return <MockDataBanner failure={error instanceof Error ? error.message : String(error)} />;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// A layout set to right to left whatever the language: its mirroring styles before the first paint.
const rtlReady = opening.rtl ? loadRtlCache().catch(() => undefined) : undefined;
// After the stored language's messages arrive (English needs no wait), so the first paint is in it;
// and, for up to 400 ms, the opened screen's code, so the layout and the screen come in one render
// (no loading indicator, no second pass: lib/lazy-page.ts). A slower chunk leaves the layout first.
const screenReady = routeReady ? within(routeReady, 400) : undefined;
void Promise.all([i18nReady, startMockData().catch(() => null), rtlReady, screenReady]).then(([, mockMark]) =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
      {mockMark}
    </StrictMode>,
  ),
);
