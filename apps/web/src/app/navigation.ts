import type { NavEntry } from '../lib/feature';
import type { PermissionHolder } from '../lib/permissions';
import { hasPermission } from '../lib/permissions';
import { FEATURES } from './features';

/** The main navigation in spec §2.3 order: Status, Sessions, Dashboard, …, Settings. */
export const NAV_ENTRIES: readonly NavEntry[] = FEATURES.flatMap((feature) => (feature.nav ? [feature.nav] : []));

/** The entries the user may see; the rest are not rendered (spec §2.3). */
export function visibleNavEntries(
  user: PermissionHolder | null,
  entries: readonly NavEntry[] = NAV_ENTRIES,
): NavEntry[] {
  return entries.filter((entry) => hasPermission(user, entry.permissions));
}

/** True when the entry is the current one for the path (its own path, a child, or an alias). */
export function isEntryActive(entry: NavEntry, pathname: string): boolean {
  const current = pathname.toLowerCase();
  return [entry.path, ...(entry.alsoActiveOn ?? [])]
    .map((path) => path.toLowerCase())
    .some((path) => current === path || current.startsWith(`${path}/`));
}
