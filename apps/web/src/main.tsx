import '@fontsource/poppins/300.css';
import '@fontsource/poppins/400.css';
import '@fontsource/poppins/500.css';
import '@fontsource/poppins/600.css';
import { i18nReady } from './lib/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { captureInitialPath } from './app/router/initial-path';

// Before the router starts redirecting, so a deep link survives the trip through /signin.
captureInitialPath();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// After the stored language's messages arrive (English needs no wait), so the first paint is in it.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
