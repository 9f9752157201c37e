import { isDatabaseUnavailable } from '../db/health.js';

/** What detach() logs with. */
export interface DetachLog {
  error(object: { err: unknown }, message: string): void;
  debug?(object: { err: unknown }, message: string): void;
}

/**
 * Logs a failure at error level, except one that only says the database is away: the database's
 * health tracker logs an outage once, so each timer and request failing during it stays at debug
 * instead of writing a line every half second.
 */
export function logFailure(log: DetachLog, error: unknown, message: string): void {
  if (isDatabaseUnavailable(error)) log.debug?.({ err: error }, message);
  else log.error({ err: error }, message);
}

/**
 * Runs a promise nobody awaits (an event handler's work, a timer's) so that a rejection is logged,
 * never left unhandled: one failed database call in the gateway or a socket handler must not end
 * the server. `onError` runs after the log line, to tell the client and close what was opened;
 * an error it throws is logged too. Lint forbids `void promise` in the gateway and realtime code
 * (eslint.config.js), so every detached promise there goes through here.
 */
export function detach(
  log: DetachLog,
  what: string,
  work: PromiseLike<unknown>,
  onError?: (error: unknown) => void,
): void {
  Promise.resolve(work).then(undefined, (error: unknown) => {
    logFailure(log, error, `${what} failed`);
    if (!onError) return;
    try {
      onError(error);
    } catch (second) {
      log.error({ err: second }, `${what}: its failure could not be reported`);
    }
  });
}

/**
 * The last line of defence (main.ts installs it): a promise rejection that nothing handled is
 * logged and the server keeps serving, instead of Node's default of ending the process and every
 * live session with it. Answers a function that removes the handler.
 */
export function surviveUnhandledRejections(log: DetachLog): () => void {
  const onRejection = (reason: unknown) =>
    log.error({ err: reason }, 'unhandled promise rejection (the server keeps running)');
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}
