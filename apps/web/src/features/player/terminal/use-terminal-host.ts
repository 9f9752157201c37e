import { useCallback, useState } from 'react';
import { TerminalHost } from './terminal-host';

/**
 * A terminal shown in the element the returned ref is put on: created when the element appears
 * and disposed when it goes (a React 19 ref callback with cleanup). Answers null until then.
 */
export function useTerminalHost(
  cols: number,
  rows: number,
  /** Pixels kept free below the terminal (the player's controls): its font shrinks to leave them. */
  reserveBelow = 0,
): [(element: HTMLElement | null) => (() => void) | undefined, TerminalHost | null] {
  const [host, setHost] = useState<TerminalHost | null>(null);
  // The size at creation only: later sizes come from the recording itself.
  const [initial] = useState({ cols, rows, reserveBelow });
  const ref = useCallback(
    (element: HTMLElement | null) => {
      if (!element) return undefined;
      const created = new TerminalHost(initial.cols, initial.rows, initial.reserveBelow);
      created.open(element);
      setHost(created);
      return () => {
        setHost(null);
        created.dispose();
      };
    },
    [initial],
  );
  return [ref, host];
}
