import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { fetchCastRange, seekRecording } from '../api/media';
import { ReplayEngine, type ReplayState, type TerminalSink } from './replay-engine';

/**
 * A replay of the recording on the given terminal, started as soon as the terminal exists and
 * stopped when the component goes. `live` keeps looking for new bytes at the end.
 */
export function useReplay(
  recordingId: string,
  sink: TerminalSink | null,
  live: boolean,
): { engine: ReplayEngine; state: ReplayState } {
  const engine = useMemo(
    () =>
      new ReplayEngine({
        fetchRange: (start, end) => fetchCastRange(recordingId, start, end),
        seek: (t) => seekRecording(recordingId, t),
      }),
    [recordingId],
  );
  useEffect(() => engine.setLive(live), [engine, live]);
  useEffect(() => {
    if (!sink) return;
    void engine.start(sink);
    return () => engine.stop();
  }, [engine, sink]);
  const state = useSyncExternalStore(engine.subscribe, engine.getState);
  return { engine, state };
}
