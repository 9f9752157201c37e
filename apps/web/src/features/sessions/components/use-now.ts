import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // One timer for every live duration on screen, running only while one is shown. React reads
  // the time again after subscribing, so the first render after a pause is not stale for long.
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

function noSubscribe(): () => void {
  return () => undefined;
}

const read = () => now;

/** The time now in ms, ticking every second while `ticking` (live sessions); finished ones need no clock. */
export function useNow(ticking: boolean): number {
  return useSyncExternalStore(ticking ? subscribe : noSubscribe, read);
}
