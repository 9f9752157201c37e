import type { FastifyBaseLogger } from 'fastify';
import type { AgentHub } from '../realtime/agent-hub.js';
import type { RecordingsService } from '../recordings/recordings.service.js';
import type { InstanceRegistry } from './instance-registry.js';

/** Recordings of no known instance are recovered once silent this long (older rows, lost instances). */
export const UNOWNED_SILENT_SECONDS = 30;
/** How often the recovery sweep runs (StartOptions.sweep.everyMs changes it in tests only). */
export const SWEEP_MS = 30_000;

/**
 * What this instance does about the others: when instances are found gone, their live recordings
 * are recovered at once and the consoles hear their agents are reconnecting; every half minute,
 * recordings no running instance writes are swept; when this instance itself was declared gone,
 * its live sessions end. One recovery runs at a time. Answers a function that stops it all.
 */
export function followInstances(
  deps: {
    instances: InstanceRegistry;
    recordings: RecordingsService;
    hub: AgentHub;
    log: FastifyBaseLogger;
  },
  /** The sweep's period (default SWEEP_MS). */
  sweepMs = SWEEP_MS,
): { recover: (silentSeconds?: number) => Promise<void>; stop: () => void } {
  let running: Promise<void> | undefined;
  /** A request that came while a recovery ran: the shortest silence asked for, run next. */
  let next: number | undefined;
  const recover = async (silentSeconds = UNOWNED_SILENT_SECONDS): Promise<void> => {
    next = Math.min(next ?? silentSeconds, silentSeconds);
    running ??= (async () => {
      while (next !== undefined) {
        const silent = next;
        next = undefined;
        const count = await deps.recordings.recoverOrphans(silent);
        if (count > 0) deps.log.info({ recordings: count }, 'recordings of stopped server instances recovered');
      }
    })().finally(() => (running = undefined));
    return running;
  };
  const onGone = (ids: string[]) => {
    recover().catch((err: unknown) => deps.log.warn({ err }, 'recovery of a gone instance’s recordings failed'));
    deps.hub
      .instancesGone(ids)
      .catch((err: unknown) => deps.log.warn({ err }, 'agents of a gone instance not announced'));
  };
  const onFenced = () => deps.recordings.takenOverElsewhere();
  deps.instances.on('gone', onGone);
  deps.instances.on('fenced', onFenced);
  const sweep = setInterval(
    () => void recover().catch((err: unknown) => deps.log.warn({ err }, 'recording recovery sweep failed')),
    sweepMs,
  );
  sweep.unref();
  return {
    recover,
    stop: () => {
      clearInterval(sweep);
      deps.instances.off('gone', onGone);
      deps.instances.off('fenced', onFenced);
    },
  };
}
