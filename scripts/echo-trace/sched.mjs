// Samples every task's CPU time and run-queue wait (/proc/PID/task/TID/schedstat) every 0.5 s, with
// CLOCK_MONOTONIC timestamps (the traces' clock: process.hrtime), until killed: sched.mjs FILE.
// Each line: [ns, { tid: [pid, ppid, comm, cmdline, run ns, wait ns, slices] }].
import fs from 'node:fs';

const out = fs.openSync(process.argv[2], 'w');
const read = (file) => fs.readFileSync(file, 'utf8');

function snapshot() {
  const snap = {};
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = read(`/proc/${pid}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = read(`/proc/${pid}/cmdline`).replaceAll('\0', ' ').slice(0, 120);
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        const comm = read(`/proc/${pid}/task/${tid}/comm`).trim();
        const [run, wait, n] = read(`/proc/${pid}/task/${tid}/schedstat`).trim().split(/\s+/).map(Number);
        snap[tid] = [Number(pid), ppid, comm, cmd, run, wait, n];
      }
    } catch {
      // The process ended while it was read.
    }
  }
  return snap;
}

for (;;) {
  const t = Number(process.hrtime.bigint());
  fs.writeSync(out, `${JSON.stringify([t, snapshot()])}\n`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
