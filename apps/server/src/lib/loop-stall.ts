/**
 * Reports when the server's main thread was blocked: a timer due every TICK_MS that fires more than
 * STALL_MS late means nothing else ran meanwhile (no HTTP answer, no SSH byte relayed). Logged at
 * warn with how long, so a stall shows in the log at the default level, not only as slow answers.
 * Costs one unref'd timer.
 */
const TICK_MS = 250;
/** A lateness worth a warning: a second without answering anything. */
export const STALL_MS = 1000;

export function watchLoopStalls(warn: (stalledMs: number) => void, tickMs = TICK_MS, stallMs = STALL_MS): () => void {
  let due = performance.now() + tickMs;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - due;
    if (late >= stallMs) warn(Math.round(late));
    due = now + tickMs;
  }, tickMs);
  timer.unref();
  return () => clearInterval(timer);
}
