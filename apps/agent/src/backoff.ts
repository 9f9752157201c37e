/** The longest wait between two attempts while the server is away. */
export const MAX_BACKOFF_MS = 5000;
/** The wait after the server closed this agent for flooding (or answered 429): 30 to 60 s. */
export const FLOOD_BACKOFF_MS = 60_000;

/**
 * Capped exponential backoff with half jitter: 0.25–0.5 s, 0.5–1 s, 1–2 s, 2–4 s, then 2.5–5 s
 * however long the server stays away, so an agent is back within 5 s of the server's return. The
 * jitter spreads a fleet's reconnections over half the interval (as Teleport's agent pool does:
 * retries of 1 s steps up to 8 s with half jitter, lib/reversetunnel/agentpool.go). The count of
 * attempts starts again once the server accepted the agent's hello, not merely its socket.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The wait after a flood close: half FLOOD_BACKOFF_MS plus a jitter of up to the other half. */
export function floodDelay(random: () => number = Math.random): number {
  return Math.round(FLOOD_BACKOFF_MS / 2 + (random() * FLOOD_BACKOFF_MS) / 2);
}
