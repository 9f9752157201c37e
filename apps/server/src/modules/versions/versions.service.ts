import { BUILD, type Versions } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { AgentsRepository } from '../agents/agents.repository.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

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
      kubernetes: Boolean(process.env.KUBERNETES_SERVICE_HOST),
      statefulsets: [],
    };
  }

  async setDesiredAgentVersion(version: string) {
    await this.settings.put(KEY, { desired_agent_version: version });
    return { message: 'Configuration saved.', versions: await this.get() };
  }
}
