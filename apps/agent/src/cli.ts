#!/usr/bin/env node
import { AgentConnection, CredentialRevoked } from './connection.js';
import { Log } from './log.js';
import { USAGE, osCode, readOptions } from './options.js';
import { RegistrationRefused, register } from './register.js';
import { StateDir } from './state.js';

const VERSION = '2.0.0';

/** Exit codes: 1 bad options or unexpected failure, 2 registration refused, 3 credential revoked. */
async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2), process.env);
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if ('error' in options) {
    process.stderr.write(`${options.error}\n\n${USAGE}\n`);
    return 1;
  }
  const log = new Log();
  const state = new StateDir(options.stateDir);
  const hello = { hostname: options.hostname, os: osCode(), version: VERSION };
  let identity = state.identity();
  if (identity && identity.server !== options.server) {
    log.notice(
      `state in ${options.stateDir} belongs to ${identity.server}; using it (pass another --state-dir to enrol elsewhere)`,
    );
  }
  if (!identity) {
    if (!options.key) {
      process.stderr.write(
        `This host is not enrolled yet: pass --key with a registration key from the console (Keys).\n`,
      );
      return 1;
    }
    try {
      identity = await register(options.server, { key: options.key, ...hello });
    } catch (error) {
      process.stderr.write(`Registration refused: ${(error as Error).message}\n`);
      return error instanceof RegistrationRefused ? 2 : 1;
    }
    state.saveIdentity(identity);
    log.notice(`registered as agent ${identity.id}; identity kept in ${options.stateDir}`);
  } else if (options.enrolOnly) {
    log.notice(`already enrolled as agent ${identity.id} (state in ${options.stateDir}); the key is not used`);
  }
  if (options.enrolOnly) return 0;
  const connection = new AgentConnection(identity, hello, state, log, options.capture);
  const stop = () => {
    connection.stop();
    // Running video captures write their last fragment and upload it first (bounded in time).
    void connection.stopCaptures(15_000).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await connection.run();
    return 0;
  } catch (error) {
    if (error instanceof CredentialRevoked) {
      process.stderr.write(
        `${error.message}\nTo enrol this host again, delete ${options.stateDir}/identity.json and run with a new --key.\n`,
      );
      return 3;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`gatehouse-agent failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
