import Box from '@mui/material/Box';
import { keyframes } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { useContext, useEffect, useState } from 'react';
import { UNSAFE_LocationContext as LocationContext, useLocation, useOutlet } from 'react-router';
import type { Location } from 'react-router';
import { useThemeSettings } from '../../providers/theme-settings-context';
import type { RouteTransition as TransitionName } from '../../theme/theme-settings';

/** Route transitions last 300 ms in and 300 ms out (spec §2.9, §9). */
export const ROUTE_TRANSITION_MS = 300;

type Animated = Exclude<TransitionName, 'none'>;
type Frames = { enter: ReturnType<typeof keyframes>; exit: ReturnType<typeof keyframes> };

const offset = (x: number, y: number) => `translate3d(${x}px, ${y}px, 0)`;
function slide(x: number, y: number): Frames {
  return {
    enter: keyframes({ from: { opacity: 0, transform: offset(x, y) }, to: { opacity: 1, transform: 'none' } }),
    exit: keyframes({ from: { opacity: 1, transform: 'none' }, to: { opacity: 0, transform: offset(-x, -y) } }),
  };
}

const FRAMES: Record<Animated, Frames> = {
  fade: {
    enter: keyframes({ from: { opacity: 0 }, to: { opacity: 1 } }),
    exit: keyframes({ from: { opacity: 1 }, to: { opacity: 0 } }),
  },
  // slideLeft moves the page towards the left: the new one comes in from the right.
  slideLeft: slide(48, 0),
  slideRight: slide(-48, 0),
  slideUp: slide(0, 40),
  slideDown: slide(0, -40),
};

interface Shown {
  path: string;
  outlet: ReactNode;
  location: Location;
}

/**
 * The current route's screen with the chosen route transition (spec §2.9): on a path change the
 * shown screen plays its exit for 300 ms, still seeing the location it was opened on, then the
 * new screen plays its entry. With 'none' the screen changes at once.
 */
export function RouteTransition() {
  const { settings } = useThemeSettings();
  const transition = settings.routeTransition;
  const location = useLocation();
  const locationContext = useContext(LocationContext);
  const outlet = useOutlet();
  const [current, setCurrent] = useState<Shown>({ path: location.pathname, outlet, location });
  const [exiting, setExiting] = useState<Shown | null>(null);

  // The element kept for a path is the one of its first render; a route's element depends only on
  // the matched path, so it still renders the same screen instance while it leaves.
  if (current.path !== location.pathname) {
    setCurrent({ path: location.pathname, outlet, location });
    if (transition !== 'none') setExiting((leaving) => leaving ?? current);
  }

  useEffect(() => {
    if (!exiting) return;
    const timer = window.setTimeout(() => setExiting(null), ROUTE_TRANSITION_MS);
    return () => window.clearTimeout(timer);
  }, [exiting]);

  if (transition === 'none') return <>{outlet}</>;
  const shown = exiting ?? { ...current, outlet };
  const phase = exiting ? 'exit' : 'enter';
  return (
    <Box
      key={shown.path}
      data-route-transition={transition}
      data-phase={phase}
      sx={{
        minHeight: '100%',
        animation: `${FRAMES[transition][phase]} ${ROUTE_TRANSITION_MS}ms ease both`,
        // Pointer input waits for the leaving screen to go: a click there would act on a stale page.
        pointerEvents: exiting ? 'none' : 'auto',
      }}
    >
      <LocationContext.Provider
        value={
          exiting ? { location: exiting.location, navigationType: locationContext.navigationType } : locationContext
        }
      >
        {shown.outlet}
      </LocationContext.Provider>
    </Box>
  );
}
