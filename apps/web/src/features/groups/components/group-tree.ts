/** The parts of a group the nesting helpers read. */
export interface NestedGroup {
  name: string;
  groups: readonly string[];
}

/** The groups that hold the named group as a direct child. */
export function parentsOf(groups: readonly NestedGroup[], name: string): string[] {
  return groups.filter((group) => group.groups.includes(name)).map((group) => group.name);
}

/**
 * The groups that may be offered as new children of the named one: every other group not
 * nested there already. Nestings that would close a cycle stay on offer: the server refuses
 * them and names the cycle, which tells the user more than a missing option would.
 */
export function nestingChoices(groups: readonly NestedGroup[], name: string): string[] {
  const current = groups.find((group) => group.name === name)?.groups ?? [];
  return groups.map((group) => group.name).filter((other) => other !== name && !current.includes(other));
}
