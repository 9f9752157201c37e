import type { RefObject } from 'react';
import { useCallback, useEffect, useState } from 'react';
import type { DesktopSize } from '../connection/desktop-protocol';
import { desktopSize } from '../connection/desktop-protocol';

/** How long the area must keep its size before the desktop is asked to follow. */
export const RESIZE_DEBOUNCE_MS = 500;

/** Space kept below the desktop, so the page does not scroll. */
const BOTTOM_GAP = 24;
/** The least height the desktop area takes, even on a short window. */
const MIN_HEIGHT = 360;

/** The height from the element's top to the window's bottom, following window resizes. */
export function useAvailableHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(MIN_HEIGHT);
  useEffect(() => {
    const measure = () => {
      const top = ref.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - BOTTOM_GAP)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref]);
  return height;
}

/** Full screen for one element: whether it is, and a toggle (Escape leaves, as the browser does). */
export function useFullscreen(ref: RefObject<HTMLElement | null>): { active: boolean; toggle: () => void } {
  const [active, setActive] = useState(false);
  useEffect(() => {
    const onChange = () => setActive(document.fullscreenElement !== null && document.fullscreenElement === ref.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [ref]);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void ref.current?.requestFullscreen?.().catch(() => undefined);
  }, [ref]);
  return { active, toggle };
}

/**
 * While `active`, watches the element's size (window resize, full screen, the sidebar) and, once it
 * has not changed for RESIZE_DEBOUNCE_MS, asks for that size (within the server's limits) with
 * `onSize` (keep it stable: a new one starts the watch again); the same size is not asked twice in a row.
 */
export function useRemoteResize(
  ref: RefObject<HTMLElement | null>,
  active: boolean,
  onSize: (size: DesktopSize) => void,
): void {
  useEffect(() => {
    const element = ref.current;
    if (!active || !element || typeof ResizeObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = desktopSize({ width: element.clientWidth, height: element.clientHeight });
    const observer = new ResizeObserver(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const size = desktopSize({ width: element.clientWidth, height: element.clientHeight });
        if (size.width === last.width && size.height === last.height) return;
        last = size;
        onSize(size);
      }, RESIZE_DEBOUNCE_MS);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, [ref, active, onSize]);
}
