// The server both benchmarks drive: the built server on in-memory PGlite, loopback ports, a
// known administrator, and a small JSON client for its API.
import { openDatabase } from '../apps/server/dist/db/client.js';
import { tuneHeapGrowth } from '../apps/server/dist/lib/heap-growth.js';
import { startServer } from '../apps/server/dist/server.js';

export const ADMIN = { email: 'bench@example.test', password: 'bench-password-1' };

/**
 * Starts the server with its data in `dataDir` (on `options.database` when given, serving the console
 * from `options.webDir` when given); answers it, its database and `call(method, url, token, body)`.
 */
export async function startBenchServer(dataDir, options = {}) {
  const database = options.database ?? (await openDatabase({}));
  const server = await startServer(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: undefined,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      logLevel: 'silent',
      loginRateLimitPerMinute: 100000,
      buildTag: 'bench',
      webDir: options.webDir,
      trustProxy: false,
      secretKey: undefined,
      redisUrl: undefined,
      publicUrl: undefined,
      sshPort: 0,
      sshHost: '127.0.0.1',
    },
    { database },
  );
  const call = async (method, url, token, body) =>
    (
      await fetch(`${server.url}${url}`, {
        method,
        headers: {
          ...(token ? { 'authentication-token': token } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json();
  // The benches host the server in their own process: its heap is tuned as main.ts tunes it, once started.
  tuneHeapGrowth();
  return { server, database, call };
}
