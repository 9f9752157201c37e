import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Where each small tunnel frame is seen on its way, for finding where a keystroke's echo waits
 * (issue 19). Off unless GATEHOUSE_ECHO_TRACE names a file prefix: each process then appends
 * `<monotonic ns> <event> <stream> <bytes>` lines to `<prefix>.<pid>` (the monotonic clock is shared
 * by every process on the machine, so the files line up), and once a second the event loop's delay
 * percentiles. Frames of more than TRACE_MAX_BYTES are not traced (bulk output), nor is any byte's
 * content. Costs one comparison per frame when off. The files hold when each key was typed, which
 * says something about what was typed (keystroke timing): for benchmarks on test machines, never on a
 * server users log in to; they are created readable by their owner only.
 */
const prefix = process.env.GATEHOUSE_ECHO_TRACE;
export const TRACING = Boolean(prefix);
/** Only frames up to this size are traced: keystrokes and echoes, not bulk output. */
export const TRACE_MAX_BYTES = 512;

let lines: string[] = [];
if (prefix) {
  const file = `${prefix}.${process.pid}`;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const flush = () => {
    const ms = (ns: number) => (ns / 1e6).toFixed(2);
    lines.push(
      `${process.hrtime.bigint()} loop-delay ${process.argv[1] ?? ''} p50=${ms(delay.percentile(50))} p90=${ms(delay.percentile(90))} p99=${ms(delay.percentile(99))} max=${ms(delay.max)} n=${delay.count}`,
    );
    delay.reset();
    fs.appendFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
    lines = [];
  };
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
}

/** Notes that a small frame of `stream` passed `event` now (only while tracing). */
export function trace(event: string, stream: number, bytes: number): void {
  if (bytes <= TRACE_MAX_BYTES) lines.push(`${process.hrtime.bigint()} ${event} ${stream} ${bytes}`);
}

/** Notes something of any size (a TCP read and the time it took to process), only while tracing. */
export function traceAny(event: string, a: number, b: number): void {
  lines.push(`${process.hrtime.bigint()} ${event} ${a} ${b}`);
}

/**
 * While tracing: each TCP read of the socket, its size and how long the loop turn that processed it
 * took (µs): the microtask runs once the read's callbacks and their ticks are done.
 */
export function traceReads(
  socket: { prependListener(e: 'data', l: (chunk: Buffer) => void): unknown },
  event: string,
): void {
  socket.prependListener('data', (chunk: Buffer) => {
    const start = process.hrtime.bigint();
    queueMicrotask(() => traceAny(event, chunk.length, Number((process.hrtime.bigint() - start) / 1000n)));
  });
}
