import { logFailure } from '../lib/detach.js';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { InstancesRepository } from './instances.repository.js';

/** How often each instance beats its row. */
export const INSTANCE_BEAT_MS = 2000;
/** An instance silent this long (four beats) is gone: what it held is taken over. */
export const INSTANCE_LOST_SECONDS = 8;

/**
 * Where process ids mean the same thing: the host name and, on Linux, the pid namespace (two
 * containers may share a host name; their process ids are not comparable).
 */
const HOST = (() => {
  try {
    return `${os.hostname()} ${fs.readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return os.hostname();
  }
})();

/** Instances running in this process (tests run several): never anyone's predecessor. */
const RUNNING_HERE = new Set<string>();

/**
 * This server instance in the shared database: a row beaten every INSTANCE_BEAT_MS, marked gone
 * when the instance stops, and the other instances' rows watched. Agents and live recordings name
 * the instance holding them (`id`), so when one is gone every other instance knows at once what
 * it held. An instance is known gone when it stopped, when it is silent for INSTANCE_LOST_SECONDS
 * while this one beats fine, or at start: with the embedded database every earlier instance (one
 * process owns the folder), otherwise an earlier instance of this host and pid namespace whose
 * process is dead or has this process's id.
 *
 * Events: 'gone' (ids) when instances were found gone, by this instance (each by exactly one);
 * 'beat' after each beat; 'fenced' (oldId) when another instance declared this one gone (it was
 * silent too long): it takes a new id and its holders must give up what was taken over.
 */
export class InstanceRegistry extends EventEmitter {
  private current = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private healthySince: Date | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private advertised: string | undefined;

  constructor(
    private readonly repository: InstancesRepository,
    private readonly log: FastifyBaseLogger,
    private readonly options: { beatMs?: number; lostSeconds?: number } = {},
  ) {
    super();
  }

  /** This instance's id (a new one after it was fenced). */
  get id(): string {
    return this.current;
  }

  /**
   * Registers this instance and marks its predecessors gone; with `exclusive` (the embedded
   * database) every other instance is a predecessor. Then beats until close().
   */
  async start(exclusive: boolean): Promise<void> {
    await this.repository.register(this.current, HOST, process.pid);
    RUNNING_HERE.add(this.current);
    const gone = await this.repository.markPredecessorsGone(
      { id: this.current, host: HOST, pid: process.pid },
      exclusive,
      (id, pid) => RUNNING_HERE.has(id) || (pid !== process.pid && processAlive(pid)),
    );
    if (gone.length > 0) {
      this.log.warn({ instances: gone }, 'earlier server instances are gone; taking over what they held');
      this.emit('gone', gone);
    }
    // One row per start: those gone for a day are forgotten here.
    await this.repository.prune().catch((error: unknown) => this.log.warn({ err: error }, 'instance rows not pruned'));
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => (this.running = undefined));
    }, this.options.beatMs ?? INSTANCE_BEAT_MS);
    this.timer.unref();
  }

  /** Records the URL the other instances reach this one at (relays, ADR 0007); kept across fencing. */
  async advertise(url: string): Promise<void> {
    this.advertised = url;
    await this.repository.advertise(this.current, url);
  }

  /** One beat: this row, then the others' silence. */
  private async tick(): Promise<void> {
    try {
      const at = await this.repository.beat(this.current);
      if (!at) {
        await this.fenced();
        return;
      }
      this.healthySince ??= at;
      const lostSeconds = this.options.lostSeconds ?? INSTANCE_LOST_SECONDS;
      const gone = await this.repository.markSilentGone(this.current, lostSeconds, this.healthySince);
      if (gone.length > 0) {
        this.log.warn({ instances: gone }, 'server instances went silent; taking over what they held');
        this.emit('gone', gone);
      }
      this.emit('beat');
    } catch (error) {
      // Until a beat succeeds again, this instance does not judge the others' silence.
      this.healthySince = undefined;
      logFailure(this.log, error, 'server instance heartbeat failed');
    }
  }

  /** Another instance found this one silent and took over: start again under a new id. */
  private async fenced(): Promise<void> {
    if (this.stopped) return;
    const old = this.current;
    RUNNING_HERE.delete(old);
    this.current = randomUUID();
    RUNNING_HERE.add(this.current);
    this.healthySince = undefined;
    this.log.error(
      { instance: old },
      'this server instance was silent too long and was declared gone by another; its live sessions end',
    );
    await this.repository.register(this.current, HOST, process.pid);
    if (this.advertised) await this.repository.advertise(this.current, this.advertised);
    this.emit('fenced', old);
  }

  /** Stops beating and marks this instance gone, so what it held is known free at once. */
  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    RUNNING_HERE.delete(this.current);
    await this.repository.markGone(this.current).catch((error: unknown) => {
      this.log.warn({ err: error }, 'could not mark this server instance stopped');
    });
  }
}

/** True when a process with this id runs in this pid namespace. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
