import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * A flag that falls back to off whenever the path changes: the navigation drawer opened below
 * lg, the collapsed mini or bit-bucket sidebar (spec §2.3: reset to not collapsed on every
 * location change).
 */
export function usePathToggle(): [on: boolean, set: (on: boolean) => void] {
  const { pathname } = useLocation();
  const [state, setState] = useState({ path: pathname, on: false });
  // Adjusting state while rendering (React's pattern for resetting on a prop change): the new
  // path never renders with the old flag, not even for one frame.
  if (state.path !== pathname) setState({ path: pathname, on: false });
  const set = useCallback((on: boolean) => setState({ path: pathname, on }), [pathname]);
  return [state.path === pathname && state.on, set];
}
