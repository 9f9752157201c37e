import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in per cent of
 * it, before it starts the next one (V8's `--heap-growing-percent`; its own choice here is about 48).
 */
export const HEAP_GROWING_PERCENT = 100;

const FLAG = '--heap-growing-percent';

/**
 * Gives the relay's buffers room before V8 collects the whole heap (issue 19).
 *
 * Every SSH packet the gateway relays passes through several buffers of its own memory (the socket's
 * read, the WebSocket frame, the decrypted packet, the packet encrypted for the user). V8 counts those
 * bytes, until a scavenge frees them, against the old generation's limit. With V8's own growing factor
 * that limit sits about 24 MB above the ~50 MB the server keeps, so a bulk copy started a full
 * mark-compact of those 50 MB every 5 to 8 MiB relayed: 14 to 16 of them per 128 MiB, about 30 % of
 * the main thread's busy time. With twice the kept size as headroom, the same copy
 * starts one (docs/benchmarks.md, "The relay's garbage collection"). The price: the old generation
 * may hold up to twice what is live before it is collected, instead of about 1.5 times.
 *
 * V8 reads the flag whenever it sets the next limit, so setting it at start-up takes effect with the
 * first collection. An operator's own `--heap-growing-percent` (in NODE_OPTIONS or on the command
 * line) wins.
 */
export function tuneHeapGrowth(
  options: { execArgv?: readonly string[]; nodeOptions?: string | undefined } = {},
): boolean {
  const execArgv = options.execArgv ?? process.execArgv;
  const nodeOptions = options.nodeOptions ?? process.env.NODE_OPTIONS ?? '';
  const given = (arg: string) => arg === FLAG || arg.startsWith(`${FLAG}=`) || arg.startsWith('--heap_growing_percent');
  if (execArgv.some(given) || nodeOptions.split(/\s+/).some(given)) return false;
  v8.setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
  return true;
}
