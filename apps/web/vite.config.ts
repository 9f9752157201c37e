import react from '@vitejs/plugin-react';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { type Plugin, type Rolldown, defineConfig } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;

const server = 'http://127.0.0.1:8080';

/** The chunk of a language's messages (lib/catalogues.ts loads them on first use): one file per language. */
function messagesChunk(id: string): string | null {
  const language = /[\\/]locales[\\/](\w+)\.json$/.exec(id)?.[1];
  return language ? `messages-${language}` : null;
}

/** node_modules that every screen needs before its first render (see build.rolldownOptions). */
const VENDOR =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/]query-core|@tanstack[\\/]react-query|i18next|react-i18next|@mui[\\/](material|system|utils|styled-engine|icons-material|private-theming|core-downloads-tracker)|@emotion|@babel[\\/]runtime|react-transition-group|@popperjs|clsx|prop-types|react-is|hoist-non-react-statics|stylis)[\\/]/;

/**
 * Whether a module is loaded before the first render: the entry, or imported (statically) by such a
 * module. A library module that only lazy screens import is not, and stays out of the vendor chunk.
 */
function initialModules() {
  const known = new Map<string, boolean>();
  const initial = (id: string, ctx: ChunkingContext): boolean => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    known.set(id, false); // an import cycle answers "not through here"
    const info = ctx.getModuleInfo(id);
    const answer = info !== null && (info.isEntry || info.importers.some((importer) => initial(importer, ctx)));
    known.set(id, answer);
    return answer;
  };
  return initial;
}

/**
 * What VENDOR names goes to one of two chunks: 'vendor', what the first render needs (in the first
 * load), and 'vendor-screens', the rest (MUI components only lazy screens use), fetched with the
 * first lazy screen in one request instead of some twenty small ones beside the screen's own chunk.
 */
function vendorChunk(): (id: string, ctx: ChunkingContext) => string | null {
  const initial = initialModules();
  return (id, ctx) => (VENDOR.test(id) ? (initial(id, ctx) ? 'vendor' : 'vendor-screens') : null);
}

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
            // What the first render imports; the rest of these libraries in a chunk of their own.
            { name: vendorChunk(), priority: 20 },
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
