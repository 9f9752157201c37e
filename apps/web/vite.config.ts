import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = 'http://127.0.0.1:8080';

/** The chunk of a language's messages (lib/catalogues.ts loads them on first use): one file per language. */
function messagesChunk(id: string): string | null {
  const language = /[\\/]locales[\\/](\w+)\.json$/.exec(id)?.[1];
  return language ? `messages-${language}` : null;
}

// base './' keeps asset URLs relative, so the server can host the console under any path.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: messagesChunk }] } } },
  },
  server: {
    proxy: {
      // The browser desktop's WebSockets (features/desktop) come before the rest of the API.
      '/api/desktop': { target: server, changeOrigin: true, ws: true },
      '/api': { target: server, changeOrigin: true },
      '/sso': { target: server, changeOrigin: true },
      '/socket.io': { target: server, changeOrigin: true, ws: true },
    },
  },
});
