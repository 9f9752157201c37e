import { useEffect, useState } from 'react';

/** The current time (ms since the epoch), renewed every `everyMs`, so relative times stay true. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
