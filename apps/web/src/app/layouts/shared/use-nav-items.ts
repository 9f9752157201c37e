import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useNavigationCounts } from '../../../features/system/api/navigation-counts';
import type { NavEntry, NavigationCounts } from '../../../lib/feature';
import { useSession } from '../../../lib/use-session';
import { isEntryActive, visibleNavEntries } from '../../navigation';

// The landmark keeps this one English name in every language, as the foundation issue specifies,
// so browser tests find it whatever the language; the entries inside are translated.
/** Accessible name of the main navigation landmark, in every layout. */
export const MAIN_NAVIGATION_LABEL = 'Main navigation';

/** One entry as the navigation renders it. */
export interface NavItem {
  entry: NavEntry;
  /** Translated label, also the link's accessible name. */
  label: string;
  /** The entry of the current path. */
  active: boolean;
  /** Id of the hidden text describing the counts (aria-describedby), when the server sent some. */
  countsId: string | undefined;
}

/**
 * The one navigation model every layout renders (spec §2.3): the entries the user is permitted,
 * in order, with labels, the current one and the live counts.
 */
export function useNavItems(): {
  items: NavItem[];
  counts: NavigationCounts | undefined;
  current: NavItem | undefined;
} {
  const { t } = useTranslation();
  const { user } = useSession();
  const { pathname } = useLocation();
  const { data: counts } = useNavigationCounts();
  const baseId = useId();
  const items = visibleNavEntries(user).map((entry) => {
    const hasCounts = entry.counts?.some((key) => counts?.[key] !== undefined) ?? false;
    return {
      entry,
      label: t(entry.messageId),
      active: isEntryActive(entry, pathname),
      countsId: hasCounts ? `${baseId}-${entry.id}-counts` : undefined,
    };
  });
  return { items, counts, current: items.find((item) => item.active) };
}
