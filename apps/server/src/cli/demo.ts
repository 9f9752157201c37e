#!/usr/bin/env node
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { prepareDatabase } from '../server.js';
import { seedDemo } from './demo-data.js';
import { DEFAULT_DEMO_RECORDINGS } from './demo-recordings.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** How many recordings: `--recordings N`, else GATEHOUSE_DEMO_RECORDINGS, else 10,000. */
function recordingCount(argv: string[], env: NodeJS.ProcessEnv): number {
  const flag = argv.indexOf('--recordings');
  const text = flag >= 0 ? argv[flag + 1] : env.GATEHOUSE_DEMO_RECORDINGS;
  if (text === undefined || text === '') return DEFAULT_DEMO_RECORDINGS;
  const count = Number(text);
  if (!Number.isInteger(count) || count < 0 || count > 2_000_000) {
    throw new ConfigError(
      `--recordings (or GATEHOUSE_DEMO_RECORDINGS) must be a whole number from 0 to 2000000, not "${text}".`,
    );
  }
  return count;
}

let shown = -1;
/** Progress on one line when a person watches, else a line at every fifth of the way. */
function progress(done: number, total: number): void {
  if (process.stdout.isTTY) {
    process.stdout.write(`\rRecordings: ${done} / ${total}${done === total ? '\n' : ''}`);
    return;
  }
  const fifth = Math.floor((done * 5) / total);
  if (fifth === shown) return;
  shown = fifth;
  process.stdout.write(`Recordings: ${done} / ${total}\n`);
}

/** `npm run demo`: fills the configured database with realistic data through the real services. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, path.resolve(here, '../../../web/dist'));
  const count = recordingCount(process.argv.slice(2), process.env);
  const { database, services, releaseLock } = await prepareDatabase(config);
  try {
    const admin = await services.usersService.ensureFirstAdmin(config.adminEmail, config.adminPassword);
    const report = await seedDemo(services, { count, dataDir: config.dataDir, progress });
    if (admin.created && admin.generatedPassword) {
      report.unshift(
        `First administrator: ${admin.email}, password (shown only this once): ${admin.generatedPassword}`,
      );
    }
    process.stdout.write(`${report.join('\n')}\n`);
  } finally {
    await database.close();
    releaseLock?.();
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof DataDirLockedError
      ? `${error.message}\nThe embedded database allows one process at a time: stop the server, run npm run demo, then npm start again.`
      : error instanceof ConfigError
        ? error.message
        : String((error as Error).stack ?? error);
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
});
