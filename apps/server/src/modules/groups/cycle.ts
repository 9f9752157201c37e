/**
 * The cycle that nesting `child` inside `parent` would close, as the path parent → … → parent,
 * or undefined when the nesting is safe. A group inside itself is the shortest cycle.
 */
export function findCycle(
  edges: { parent: string; child: string }[],
  parent: string,
  child: string,
): string[] | undefined {
  if (parent === child) return [parent, parent];
  // Walk down from the child; reaching the parent means parent → child → … → parent.
  const childrenOf = new Map<string, string[]>();
  for (const e of edges) childrenOf.set(e.parent, [...(childrenOf.get(e.parent) ?? []), e.child]);
  const previous = new Map<string, string>();
  const queue = [child];
  const seen = new Set([child]);
  while (queue.length > 0) {
    const current = queue.shift() as string;
    if (current === parent) {
      const path = [parent];
      let step = parent;
      while (step !== child) {
        step = previous.get(step) as string;
        path.unshift(step);
      }
      return [parent, ...path];
    }
    for (const next of childrenOf.get(current) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}
