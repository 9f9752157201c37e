import type { Answer, MockState } from '../types';

/**
 * The groups that hold `start` directly or through nesting, with the path of names that leads
 * there (start first). A parent holds its children's members.
 */
export function ancestors(state: MockState, start: string[]): Map<string, string[]> {
  const paths = new Map<string, string[]>(start.map((name) => [name, [name]]));
  const queue = [...start];
  while (queue.length > 0) {
    const name = queue.shift() ?? '';
    for (const parent of state.groups.filter((group) => group.groups.includes(name))) {
      if (paths.has(parent.name)) continue;
      paths.set(parent.name, [...(paths.get(name) ?? []), parent.name]);
      queue.push(parent.name);
    }
  }
  return paths;
}

/** What a user reaches: every group they belong to (nesting included), the agents of those groups and how. */
export function reachOf(state: MockState, email: string): Answer<'userReach'> {
  const direct = state.groups.filter((group) => group.users.includes(email)).map((group) => group.name);
  const paths = ancestors(state, direct);
  const agents = state.agents.flatMap((agent) => {
    const holder = state.groups.find((group) => paths.has(group.name) && group.agents.includes(agent.id));
    return holder ? [{ id: agent.id, hostname: agent.hostname, via: paths.get(holder.name) ?? [] }] : [];
  });
  return {
    groups: [...paths.keys()].sort((a, b) => a.localeCompare(b)),
    agents: agents.sort((a, b) => a.hostname.localeCompare(b.hostname)),
  };
}

/** The path of a cycle that nesting `child` inside `parent` would close, or null. */
export function cycleThrough(state: MockState, parent: string, child: string): string[] | null {
  const path = ancestors(state, [parent]).get(child);
  if (parent === child) return [parent, child];
  return path ? [...path, parent] : null;
}
