import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useThemeSettings } from '../providers/theme-settings-context';
import { settingsFromAddress } from '../theme/theme-settings';

/**
 * Applies the query settings theme_mode, is_rtl, nav_style and theme_style (spec §2.4), from the
 * hash query (/#/signin?theme_mode=light) or the page query (?theme_mode=light#/signin).
 */
export function useQuerySettings(): void {
  const [hashParams] = useSearchParams();
  const { update } = useThemeSettings();
  const key = hashParams.toString();
  useEffect(() => {
    const patch = settingsFromAddress(window.location.search, `?${key}`);
    if (Object.keys(patch).length > 0) update(patch);
  }, [key, update]);
}
