// The recorder alone (issue 19), in segments: BENCH_RECORDER_SEGMENTS (default 8) × 256 MiB of
// terminal text through one Recorder of the built server, as a bulk copy hands it over (30 KiB
// writes, waiting on 'drain'). For each segment it prints the recorder thread's user and system CPU
// per MiB, and the machine's MemFree and Dirty after it. The system time is mostly the copy into
// the page cache, and it depends on where the cache grows: into memory the kernel used before, or
// into memory the hypervisor took back and must fault in again (docs/benchmarks.md, "Fresh
// memory"). BENCH_RECORDER_DIR picks the folder (default: the system's temporary folder).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Recorder } from '../apps/server/dist/recordings/recorder.js';
import { machineCpuMs, memInfoMib, threadCpuMs } from './bench-threads.mjs';

const SEGMENTS = Number(process.env.BENCH_RECORDER_SEGMENTS ?? 8);
const SEGMENT_MIB = 256;
const tmp = fs.mkdtempSync(path.join(process.env.BENCH_RECORDER_DIR ?? os.tmpdir(), 'gh-benchrec-'));

const write = Buffer.from('gatehouse bulk output 0123456789 abcdefghijklmnopqrstuvwxyz\n'.repeat(512));
try {
  const recorder = await Recorder.create(path.join(tmp, 'alone.cast'), crypto.randomUUID(), { width: 80, height: 24 });
  console.log(
    `recorder alone, ${SEGMENTS} × ${SEGMENT_MIB} MiB of text in ${write.length}-byte writes, into ${tmp}; MemFree ${memInfoMib('MemFree')} MiB at the start, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (let segment = 1; segment <= SEGMENTS; segment += 1) {
    const before = threadCpuMs();
    const machineBefore = machineCpuMs();
    const started = performance.now();
    for (let n = 0; n < (SEGMENT_MIB * 1048576) / write.length; n += 1) {
      recorder.output(write);
      if (recorder.needsDrain) await new Promise((resolve) => recorder.once('drain', resolve));
    }
    await recorder.flush();
    const wall = performance.now() - started;
    // The whole machine too: the kernel's writeback of a buffered file runs in threads of its own.
    const machine = machineCpuMs() - machineBefore;
    // The recorder's thread is the busiest one but this (main) thread.
    let busiest = [0, 0];
    let main = 0;
    // Every other thread (libuv's pool, which carries the direct writes; the collector's helpers).
    let rest = 0;
    for (const [tid, [user, system]] of threadCpuMs()) {
      const [u0, s0] = before.get(tid) ?? [0, 0];
      if (tid === String(process.pid)) main = user - u0 + system - s0;
      else if (user - u0 + system - s0 > busiest[0] + busiest[1]) {
        rest += busiest[0] + busiest[1];
        busiest = [user - u0, system - s0];
      } else rest += user - u0 + system - s0;
    }
    const per = (ms) => (ms / SEGMENT_MIB).toFixed(2);
    console.log(
      `segment ${segment}: recorder thread user ${per(busiest[0])} + system ${per(busiest[1])} ms per MiB, main thread ${per(main)}, other threads ${per(rest)}, machine ${per(machine)}, ${((SEGMENT_MIB * 1000) / wall).toFixed(0)} MiB/s   MemFree ${memInfoMib('MemFree')} MiB, Dirty ${memInfoMib('Dirty')} MiB`,
    );
  }
  await recorder.finish();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
