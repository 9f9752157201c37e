import type { GroupsRepository } from '../groups/groups.repository.js';
import type { TunnelsRepository } from '../tunnels/tunnels.repository.js';

/** The group and every group it is nested in (a member of the group is a member of each). */
export async function groupAndAncestors(groups: GroupsRepository, name: string): Promise<Set<string>> {
  const parents = new Map<string, string[]>();
  for (const g of await groups.list())
    for (const child of g.groups) parents.set(child, [...(parents.get(child) ?? []), g.name]);
  const found = new Set<string>([name]);
  const queue = [name];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const parent of parents.get(next) ?? []) {
      if (found.has(parent)) continue;
      found.add(parent);
      queue.push(parent);
    }
  }
  return found;
}

/**
 * The hosts (agent id → host name) that membership of this group gives: the agents of the group
 * and of every group it is nested in, and the hosts of the definitions that name any of them.
 */
export async function hostsGivenByGroup(
  groups: GroupsRepository,
  tunnels: TunnelsRepository,
  name: string,
): Promise<Map<string, string>> {
  const names = await groupAndAncestors(groups, name);
  const hosts = new Map<string, string>();
  for (const a of await groups.agentsOf([...names])) hosts.set(a.id, a.hostname);
  for (const d of await tunnels.listAll())
    if (d.groupName !== null && names.has(d.groupName)) hosts.set(d.agentId, d.hostname);
  return hosts;
}
