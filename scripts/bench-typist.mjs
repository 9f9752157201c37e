// The keystroke-echo typist of bench-gateway.mjs, in a process of its own (issue 19): the echo is
// timed where a user's terminal would see it, not on the gateway's thread. bench-gateway.mjs used to
// type from its own process, which is also the in-process gateway, so each echo waited once more for
// the gateway's busy thread before it was timed (and, under a bulk copy, the copy's output was read
// on that thread too). Run as `node scripts/bench-typist.mjs JSON`; prints the samples as JSON.
// JSON: { command (the ssh command line for `script -c`), keys, gapMs, phase, bulk? (an argv whose
// output is counted while typing: a second session's copy) }.
import { spawn } from 'node:child_process';
import { TRACING, traceAny } from '../packages/tunnel/dist/index.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * One key at a time into `script` running the ssh command, gapMs after the previous echo came back;
 * answers the echo times in ms. GATEHOUSE_ECHO_TRACE: each key's send and echo go into this
 * process's trace under the phase's name (packages/tunnel/src/trace.ts).
 */
export async function typeKeys({ command, keys, gapMs, phase }) {
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'ignore'] });
  let seen = '';
  let waiting;
  child.stdout.on('data', (chunk) => {
    seen += chunk.toString('latin1');
    if (waiting && seen.includes(waiting.char)) {
      if (TRACING) traceAny(`key-seen ${phase}`, waiting.char.charCodeAt(0), 0);
      const done = waiting.resolve;
      waiting = undefined;
      done(performance.now());
    }
  });
  const key = (char, timeoutMs) =>
    new Promise((resolve) => {
      seen = '';
      const start = performance.now();
      const timer = setTimeout(() => {
        waiting = undefined;
        resolve(undefined);
      }, timeoutMs);
      waiting = {
        char,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at - start);
        },
      };
      if (TRACING) traceAny(`key-sent ${phase}`, char.charCodeAt(0), 0);
      child.stdin.write(char);
    });
  // Signed in once a key comes back (up to 30 s), then quiet output for the measurement.
  let up = false;
  for (let i = 0; i < 60 && !up; i += 1) up = (await key('.', 500)) !== undefined;
  if (!up) throw new Error(`no echo from ${command}`);
  await sleep(500);
  const samples = [];
  for (let i = 0; i < keys; i += 1) {
    const ms = await key(String.fromCharCode(97 + (i % 26)), 5000);
    if (ms === undefined) throw new Error(`key ${i} was not echoed by ${command}`);
    samples.push(ms);
    await sleep(gapMs);
  }
  // ^U ^D on the remote PTY: the line is dropped, cat or the shell ends, then ssh.
  child.stdin.write('\x15\x04');
  await new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return samples;
}

/** typeKeys while `bulk` (an argv) prints as fast as it can; answers the samples and the copy's MiB/s. */
export async function typeWhileCopying(options) {
  const copy = spawn(options.bulk[0], options.bulk.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
  let copied = 0;
  copy.stdout.on('data', (c) => (copied += c.length));
  try {
    await sleep(1500); // the copy runs at full speed before the first key
    const started = copied;
    const at = performance.now();
    const samples = await typeKeys(options);
    return { samples, mibPerS: (copied - started) / 1048576 / ((performance.now() - at) / 1000) };
  } finally {
    copy.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = JSON.parse(process.argv[2]);
  const result = options.bulk ? await typeWhileCopying(options) : { samples: await typeKeys(options) };
  process.stdout.write(JSON.stringify(result));
  setTimeout(() => process.exit(0), 100).unref();
}
