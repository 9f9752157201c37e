import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { ConsoleSocket } from '../../../lib/console-socket';
import { useSession } from '../../../lib/use-session';
import type { TerminalSink } from '../replay/replay-engine';
import { type LiveState, LiveWatch } from './live-watch';

/**
 * Watches a live session on its own console socket while the component is shown and the terminal
 * exists; leaving detaches, stops listening and closes the socket. Answers the state and the way to
 * attach again after the server dropped this watcher for falling behind.
 */
export function useLiveWatch(
  recordingId: string,
  sink: TerminalSink | null,
  size: { cols: number; rows: number; hasTerminal: boolean },
): { state: LiveState; reattach: () => void } {
  const { token } = useSession();
  const { cols, rows, hasTerminal } = size;
  const watch = useMemo(
    () => new LiveWatch(() => new ConsoleSocket(token ?? ''), recordingId, { cols, rows, hasTerminal }),
    [token, recordingId, cols, rows, hasTerminal],
  );
  useEffect(() => {
    if (!token || !sink) return;
    watch.start(sink);
    return () => watch.stop();
  }, [watch, token, sink]);
  const state = useSyncExternalStore(watch.subscribe, watch.getState);
  return { state, reattach: watch.reattach };
}
