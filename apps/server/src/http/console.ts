import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.js';

/**
 * Serves the built console when its folder exists, and answers unknown paths clearly. Files are
 * looked up on each request (a rebuild under a running server is served at once), compressed as
 * the build left them.
 */
export async function installConsole(app: FastifyInstance, webDir: string | undefined): Promise<void> {
  const hasConsole = webDir !== undefined && fs.existsSync(path.join(webDir, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: true,
      // A list: with preCompressed, @fastify/static finds the index only in an array (10.1).
      index: ['index.html'],
      // The build writes .br and .gz beside each file (apps/web/vite.config.ts): the browser gets the
      // one it accepts, with no compressing per request.
      preCompressed: true,
      setHeaders: (res, file) => {
        // Hashed assets never change; index.html must always be fresh after an upgrade.
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.get('/', async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send('Gatehouse API is running, but the console is not built. Run `npm run build` and restart.'),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi =
      request.url.startsWith('/api') ||
      request.url.startsWith('/sso') ||
      request.url.startsWith('/ldap') ||
      request.url.startsWith('/saml');
    const pathname = request.url.split('?')[0] ?? '';
    if (hasConsole && (pathname === '/' || pathname === '/index.html')) {
      // The console's own page is gone (a rebuild in progress): no redirect, which would loop.
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The console’s files are missing or being rebuilt: run `npm run build`, then reload.');
    }
    if (!isApi && request.method === 'GET' && hasConsole && request.headers.accept?.includes('text/html')) {
      // The console routes with the hash; send people to its 404 page.
      return reply.redirect('/#/error-pages/error-404');
    }
    return reply.status(404).send(errorBody(404, `There is no ${request.method} ${request.url.split('?')[0]} here.`));
  });
}
