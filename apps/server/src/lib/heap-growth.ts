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
 * V8 reads the flag whenever it sets the next limit, that is after each full collection. The server
 * sets it once it has started, so its start-up collects as before: a first start's initdb leaves
 * about 500 MiB of WebAssembly memory that only the next full collection frees, and with the larger
 * growth that collection came later (798 MiB of RSS before the first session instead of 449 in one
 * measurement). An operator's own `--heap-growing-percent` on node's command line wins (NODE_OPTIONS
 * cannot carry it).
 */
export function tuneHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  const given = (arg: string) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg);
  if (execArgv.some(given)) return false;
  v8.setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
  return true;
}
