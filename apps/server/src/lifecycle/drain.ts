import type { Readiness } from './readiness.js';

/** GATEHOUSE_DRAIN_SECONDS when unset: how long live sessions may go on after SIGTERM. */
export const DEFAULT_DRAIN_SECONDS = 30;
/**
 * After the drain, how long ending the remaining sessions (their recordings finished and signed)
 * and closing may take before the process exits anyway (main.ts): the stop never hangs. A service
 * manager's stop timeout must exceed GATEHOUSE_DRAIN_SECONDS plus this (docs/deploy/server.md).
 */
export const STOP_GRACE_SECONDS = 15;
/** How often the drain looks whether every session has ended on its own. */
const DRAIN_POLL_MS = 100;

/** What each connected SSH user reads once when the drain begins. */
export function drainNotice(seconds: number): string {
  return (
    `This gateway instance is shutting down; your session ends in ${seconds} s. ` +
    'Connect again to continue on another instance.'
  );
}

/** What a session still open at the drain's deadline reads as it is ended. */
export const DRAIN_ENDED =
  'This gateway instance shut down: your session has ended and its recording is kept. Connect again to continue.';

/** The parts of a running server that take sessions, as the drain sees them. */
export interface Drainable {
  readiness: Readiness;
  gateway: {
    readonly open: number;
    stopTaking(): void;
    tell(text: string): void;
    endAll(reason: string): Promise<void>;
  };
  tunnels: { readonly open: number; stopTaking(): void; endAll(reason: string): Promise<void> };
  agents: { stopTaking(): void };
  log: { info(object: object, message: string): void };
}

/** What the drain did. */
export interface DrainOutcome {
  /** SSH connections and tunnels still open at the deadline, ended by the server. */
  ended: { sessions: number; tunnels: number };
  /** How long live sessions were waited for (ms). */
  waitedMs: number;
}

/**
 * Graceful shutdown, before the server closes: readiness answers 503 at once (a balancer stops
 * sending), the SSH listener closes and new tunnels and agents are refused, each connected SSH
 * user is told once, then live sessions and tunnels go on until they end on their own, `seconds`
 * pass, or `hurry` aborts (a second signal); whatever is still open is then ended with its
 * recording finished and signed (never left for recovery).
 */
export async function drain(parts: Drainable, seconds: number, hurry?: AbortSignal): Promise<DrainOutcome> {
  const { readiness, gateway, tunnels, agents, log } = parts;
  readiness.drain();
  gateway.stopTaking();
  tunnels.stopTaking();
  agents.stopTaking();
  const begun = Date.now();
  log.info(
    { sessions: gateway.open, tunnels: tunnels.open, drainSeconds: seconds },
    `draining: new sessions are refused; live ones may go on for ${seconds} s (a second signal ends them now)`,
  );
  if (gateway.open + tunnels.open > 0 && seconds > 0 && !hurry?.aborted) {
    gateway.tell(drainNotice(seconds));
    await new Promise<void>((resolve) => {
      const deadline = begun + seconds * 1000;
      const timer = setInterval(() => {
        if (gateway.open + tunnels.open === 0 || Date.now() >= deadline) done();
      }, DRAIN_POLL_MS);
      const done = () => {
        clearInterval(timer);
        hurry?.removeEventListener('abort', done);
        resolve();
      };
      hurry?.addEventListener('abort', done, { once: true });
    });
  }
  const ended = { sessions: gateway.open, tunnels: tunnels.open };
  if (ended.sessions + ended.tunnels > 0)
    log.info(ended, 'drain over: ending the sessions and tunnels still open, their recordings finished');
  await Promise.all([gateway.endAll(DRAIN_ENDED), tunnels.endAll(DRAIN_ENDED)]);
  return { ended, waitedMs: Date.now() - begun };
}
