// What the benches read from /proc about this process's threads and the machine's memory.
import fs from 'node:fs';

const ticks = 100; // USER_HZ: /proc's clock ticks per second on Linux

/** CPU of each of this process's threads so far, by thread id: [user, system] in ms. */
export function threadCpuMs() {
  const out = new Map();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, [(Number(f[11]) * 1000) / ticks, (Number(f[12]) * 1000) / ticks]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** One field of /proc/meminfo (MemFree, Dirty, …) in MiB. */
export function memInfoMib(field) {
  const match = fs.readFileSync('/proc/meminfo', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}
