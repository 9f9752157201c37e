import { BUILD, type Versions } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { AgentsRepository } from '../agents/agents.repository.js';
import { HttpError } from '../../http/errors.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { KubernetesClient } from '../status/kubernetes.js';

const KEY = 'versions';

/**
 * Versions of what runs: this server, the console it serves, the agents as they reported
 * themselves, and the agent version tag administrators want. Outside Kubernetes there are no
 * StatefulSets to show.
 */
export class VersionsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly agents: AgentsRepository,
    private readonly kube: KubernetesClient | undefined,
  ) {}

  async get(): Promise<z.infer<typeof Versions>> {
    const stored = (await this.settings.get(KEY)) as { desired_agent_version?: string } | undefined;
    const counts = new Map<string, number>();
    for (const agent of await this.agents.list()) {
      const version = agent.version ?? 'unknown';
      counts.set(version, (counts.get(version) ?? 0) + 1);
    }
    return {
      server: BUILD.version,
      console: BUILD.version,
      build_number: BUILD.buildNumber,
      agents: [...counts].map(([version, count]) => ({ version, count })).sort((a, b) => b.count - a.count),
      desired_agent_version: stored?.desired_agent_version ?? null,
      kubernetes: this.kube !== undefined,
      statefulsets: this.kube ? await this.kube.statefulsets() : [],
    };
  }

  async setDesiredAgentVersion(version: string, imageTag?: string) {
    if (imageTag) {
      if (!this.kube)
        throw new HttpError(400, 'image_tag applies in Kubernetes only: this server does not run in a cluster.');
      try {
        await this.kube.setImageTag(imageTag);
      } catch (error) {
        throw new HttpError(502, `The StatefulSets were not changed: ${(error as Error).message}`);
      }
    }
    await this.settings.put(KEY, { desired_agent_version: version });
    return { message: 'Configuration saved.', versions: await this.get() };
  }
}
