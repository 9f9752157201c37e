#!/usr/bin/env node
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD } from '@gatehouse/contracts';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { type DetachLog, surviveUnhandledRejections } from './lib/detach.js';
import { tuneHeapGrowth } from './lib/heap-growth.js';
import { watchLoopStalls } from './lib/loop-stall.js';
import { startServer } from './server.js';
import { DEFAULT_DRAIN_SECONDS, STOP_GRACE_SECONDS } from './lifecycle/drain.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function explain(error: unknown, port: number): string {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) return error.message;
  const err = error as NodeJS.ErrnoException;
  if (err.code === 'EADDRINUSE')
    return `Port ${port} is already in use. Stop what uses it, or start with PORT set to another port.`;
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === '28P01' || err.code === '3D000') {
    return `Cannot connect to the database named by DATABASE_URL: ${err.message}`;
  }
  return `Gatehouse could not start: ${err.stack ?? String(error)}`;
}

/** Where the recording signing key comes from, as the banner says it. */
const SIGNING_SOURCE = {
  environment: 'from GATEHOUSE_RECORDING_KEY',
  file: 'from GATEHOUSE_RECORDING_KEY_FILE',
  'data-folder': 'sealed in the database with the data folder’s secret.key',
} as const;

/** Where an unhandled rejection is logged: stderr until the server's logger exists. */
let rejectionLog: DetachLog = {
  error: ({ err }, message) =>
    process.stderr.write(`${message}: ${err instanceof Error ? err.message : String(err)}\n`),
};

async function main(): Promise<void> {
  // Issue 14: one unexpected rejection (a database error in a handler) is logged; the server and
  // its live sessions go on. Uncaught exceptions still end the process (its state is unknown).
  surviveUnhandledRejections({ error: (object, message) => rejectionLog.error(object, message) });
  // Everything the server creates (database files, recordings, manifests, keys, videos) is its
  // user's only; secureDataDir() tightens what an older version left at each start.
  process.umask(0o077);
  let port = 8080;
  try {
    const config = loadConfig(process.env, path.resolve(here, '../../web/dist'));
    port = config.port;
    const server = await startServer(config);
    rejectionLog = server.app.log;
    // Issue 19: room for the relay's buffers before V8 collects the whole heap, once started (lib/heap-growth.ts).
    tuneHeapGrowth();
    watchLoopStalls((stalledMs) =>
      server.app.log.warn({ stalledMs }, 'the server’s main thread was blocked: nothing was answered meanwhile'),
    );
    const lines = [
      '',
      `  Gatehouse ${BUILD.version} (build ${BUILD.buildNumber}) is running at ${server.url}`,
      `  Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
      `  SSH gateway: ssh -p ${server.sshPort} <your email>@<host>@${config.sshHost}`,
      `  Recordings: ${
        config.objectStorage
          ? `object storage s3://${config.objectStorage.bucket}/${config.objectStorage.prefix} (${config.objectStorage.endpoint ?? 'AWS S3'})`
          : `data folder ${config.dataDir}`
      }`,
    ];
    const signing = await server.services.gatewayKeys.keys();
    lines.push(
      `  Recordings are signed with the key ${signing.signingFingerprint} (${SIGNING_SOURCE[signing.signingSource]})`,
    );
    if (signing.signingKeyWithData)
      lines.push(
        '  Warning: that key is kept with the data folder, so whoever can write the folder can re-sign recordings;',
        '  give one kept elsewhere with GATEHOUSE_RECORDING_KEY_FILE (see the README).',
      );
    if (server.firstAdmin.created) {
      lines.push(`  First administrator: ${server.firstAdmin.email}`);
      lines.push(
        server.firstAdmin.generatedPassword
          ? `  Password (shown only this once; change it after signing in): ${server.firstAdmin.generatedPassword}`
          : '  Password: the one in GATEHOUSE_ADMIN_PASSWORD',
      );
    }
    lines.push('');
    process.stdout.write(`${lines.join('\n')}\n`);
    // Graceful shutdown (docs/deploy/server.md): the first SIGTERM or SIGINT drains (no new
    // sessions, live ones go on for GATEHOUSE_DRAIN_SECONDS, then end recorded), a second ends the
    // live sessions at once (their recordings still finished), a third exits without waiting.
    const drainSeconds = config.drainSeconds ?? DEFAULT_DRAIN_SECONDS;
    const hurry = new AbortController();
    let signals = 0;
    const stop = (signal: string) => {
      signals += 1;
      const log = server.app.log;
      if (signals === 2) {
        log.warn({ signal }, 'second signal: ending the live sessions now, their recordings finished');
        return hurry.abort();
      }
      if (signals > 2) {
        log.error({ signal }, 'third signal: exiting without waiting; open recordings are recovered later');
        return process.exit(1);
      }
      log.info({ signal, drainSeconds }, 'stopping');
      // Never hangs: past the drain and a grace the process exits anyway (what it left open is recovered).
      const hard = setTimeout(
        () => {
          log.error({ drainSeconds, graceSeconds: STOP_GRACE_SECONDS }, 'the stop did not finish in time: exiting');
          process.exit(1);
        },
        (drainSeconds + STOP_GRACE_SECONDS) * 1000,
      );
      server
        .drain(drainSeconds, hurry.signal)
        .then((outcome) => {
          log.info(outcome, 'drained');
          return server.close();
        })
        .then(
          () => {
            clearTimeout(hard);
            process.exit(0);
          },
          (err: unknown) => {
            log.error({ err }, 'error while stopping');
            process.exit(1);
          },
        );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  } catch (error) {
    process.stderr.write(`\n${explain(error, port)}\n\n`);
    process.exit(1);
  }
}

void main();
