import react from '@vitejs/plugin-react';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { type Plugin, defineConfig } from 'vite';

const server = 'http://127.0.0.1:8080';

/** The chunk of a language's messages (lib/catalogues.ts loads them on first use): one file per language. */
function messagesChunk(id: string): string | null {
  const language = /[\\/]locales[\\/](\w+)\.json$/.exec(id)?.[1];
  return language ? `messages-${language}` : null;
}

/** node_modules that every screen needs before its first render (see build.rolldownOptions). */
const VENDOR =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/]query-core|@tanstack[\\/]react-query|i18next|react-i18next|@mui[\\/](material|system|utils|styled-engine|icons-material|private-theming|core-downloads-tracker)|@emotion|@babel[\\/]runtime|react-transition-group|@popperjs|clsx|prop-types|react-is|hoist-non-react-statics|stylis)[\\/]/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, compressed once
 * at the highest levels; the server sends the one the browser accepts (@fastify/static's
 * preCompressed, apps/server/src/http/console.ts) and spends no CPU compressing per request.
 * Fonts (already compressed) and files under 1 kB are left alone.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'gatehouse-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true })).filter((file) =>
        /\.(js|css|html|svg|json|txt)$/.test(file),
      );
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const data = await fs.readFile(full);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzip(data, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
        }),
      );
    },
  };
}

// base './' keeps asset URLs relative, so the server can host the console under any path.
export default defineConfig({
  base: './',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: messagesChunk, priority: 30 },
            // The libraries every screen starts with, in one chunk instead of some sixty modulepreloads
            // of 0.1–30 kB (six at a time over HTTP/1.1): React, the router, TanStack Query, i18next,
            // MUI's core, its icons and emotion. MUI X (the data grid, charts, pickers) stays with the
            // screens that use it.
            { name: 'vendor', test: VENDOR, priority: 20 },
          ],
        },
      },
    },
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
