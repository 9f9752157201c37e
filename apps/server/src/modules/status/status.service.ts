import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Pod } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { HttpError } from '../../http/errors.js';
import { type LogBook, scrubSecrets } from '../../lib/logger.js';
import type { AgentHub } from '../../realtime/agent-hub.js';
import type { KubernetesClient } from './kubernetes.js';

type PodStatus = z.infer<typeof Pod>;

/** A health check gives up after this long: a component that does not answer is not Running. */
const CHECK_TIMEOUT_MS = 2000;
/** Below this share of free space the recording storage is a problem. */
const MIN_FREE_SHARE = 0.01;

/** The components of an embedded Gatehouse, in the order the status screen lists them. */
export const COMPONENTS = ['api', 'gateway', 'database', 'recording-storage', 'agent-hub'] as const;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Reads the SSH banner of the gateway, as a client would. */
function sshBanner(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(CHECK_TIMEOUT_MS);
    let data = '';
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      const line = data.split('\r\n')[0] ?? '';
      if (data.includes('\r\n')) {
        socket.destroy();
        if (line.startsWith('SSH-2.0-')) resolve(line);
        else reject(new Error(`answered ${line.slice(0, 40)} instead of an SSH banner`));
      }
    });
    socket.on('timeout', () => {
      socket.destroy();
      reject(new Error('no SSH banner'));
    });
    socket.on('error', reject);
  });
}

/**
 * System status (spec §2.2 /systemStatus): each component of this instance with a real check,
 * and its recent log lines. Outside Kubernetes the "pods" are these components.
 */
export class StatusService {
  /** Where the SSH gateway listens, once it does. */
  gateway: { host: string; port: number } | undefined;
  private readonly started = Date.now();

  constructor(
    private readonly database: Database,
    private readonly hub: AgentHub,
    private readonly dataDir: string,
    private readonly book: LogBook | undefined,
    private readonly kube?: KubernetesClient,
  ) {}

  private async check(name: string, probe: () => Promise<string>): Promise<PodStatus> {
    const checkedAt = new Date().toISOString();
    try {
      return { name, status: 'Running', detail: await within(probe(), name), checked_at: checkedAt };
    } catch (error) {
      return { name, status: 'Failed', detail: (error as Error).message, checked_at: checkedAt };
    }
  }

  /** Every component, checked now; in Kubernetes, Gatehouse's pods as the cluster reports them. */
  async pods(): Promise<PodStatus[]> {
    if (this.kube) {
      const checkedAt = new Date().toISOString();
      try {
        return (await this.kube.pods()).map((p) => ({ ...p, checked_at: checkedAt }));
      } catch (error) {
        return [{ name: 'kubernetes-api', status: 'Failed', detail: (error as Error).message, checked_at: checkedAt }];
      }
    }
    return Promise.all([
      this.check(
        'api',
        async () => `answering for ${Math.round((Date.now() - this.started) / 1000)} s (pid ${process.pid})`,
      ),
      this.check('gateway', async () => {
        if (!this.gateway) throw new Error('the SSH gateway is not listening');
        const host = this.gateway.host === '0.0.0.0' || this.gateway.host === '::' ? '127.0.0.1' : this.gateway.host;
        return `${await sshBanner(host, this.gateway.port)} on port ${this.gateway.port}`;
      }),
      this.check('database', async () => {
        const begun = Date.now();
        await this.database.query('SELECT 1');
        const kind = this.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
        return `${kind} answered in ${Date.now() - begun} ms`;
      }),
      this.check('recording-storage', async () => {
        const dir = path.join(this.dataDir, 'recordings');
        await fs.mkdir(dir, { recursive: true });
        const probe = path.join(dir, `.probe-${randomUUID()}`);
        await fs.writeFile(probe, 'probe');
        try {
          if ((await fs.readFile(probe, 'utf8')) !== 'probe') throw new Error('read back something else than it wrote');
        } finally {
          await fs.rm(probe, { force: true });
        }
        const stats = await fs.statfs(dir);
        const share = stats.bavail / stats.blocks;
        const free = `${((stats.bavail * stats.bsize) / 2 ** 30).toFixed(1)} GiB free`;
        if (share < MIN_FREE_SHARE) throw new Error(`the disk is nearly full: ${free}`);
        return `writable, ${free}`;
      }),
      this.check('agent-hub', async () => `${this.hub.connectedHere} agents connected to this instance`),
    ]);
  }

  /** The health summary of spec §4: Healthy, Problem or Problems, and how many are not Running. */
  static summary(pods: PodStatus[]): { summary: 'Healthy' | 'Problem' | 'Problems'; unhealthy: number } {
    const unhealthy = pods.filter((p) => p.status !== 'Running').length;
    return { summary: unhealthy === 0 ? 'Healthy' : unhealthy === 1 ? 'Problem' : 'Problems', unhealthy };
  }

  /** One component with its recent log lines. */
  async logs(name: string, limit: number) {
    if (this.kube) {
      const pod = (await this.pods()).find((p) => p.name === name);
      if (!pod) throw new HttpError(404, `There is no Gatehouse pod ${name} in this namespace.`);
      let logs: string[];
      try {
        // Another process wrote these: scrubbed like our own log lines before anyone reads them here.
        logs = (await this.kube.logs(name, limit)).map(scrubSecrets);
      } catch (error) {
        throw new HttpError(502, `The pod's log could not be read: ${(error as Error).message}`);
      }
      return { pods: [{ ...pod, logs }] };
    }
    if (!(COMPONENTS as readonly string[]).includes(name))
      throw new HttpError(404, `There is no component ${name}. Components: ${COMPONENTS.join(', ')}.`);
    const pod = (await this.pods()).find((p) => p.name === name) as PodStatus;
    return { pods: [{ ...pod, logs: this.book?.recent(name, limit) ?? [] }] };
  }
}
