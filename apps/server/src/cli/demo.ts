#!/usr/bin/env node
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { prepareDatabase } from '../server.js';
import { seedDemo } from './demo-data.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `npm run demo`: fills the configured database with realistic data through the real services. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, path.resolve(here, '../../../web/dist'));
  const { database, services, releaseLock } = await prepareDatabase(config);
  try {
    const admin = await services.usersService.ensureFirstAdmin(config.adminEmail, config.adminPassword);
    const report = await seedDemo(services);
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
