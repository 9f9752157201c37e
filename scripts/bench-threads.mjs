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

/** The whole machine's busy CPU time so far, in ms, from /proc/stat (every core, user and kernel). */
export function machineCpuMs() {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = fields.slice(0, 8).reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0);
  return (busy * 1000) / ticks;
}

/** One field of /proc/meminfo (MemFree, Dirty, …) in MiB. */
export function memInfoMib(field) {
  const match = fs.readFileSync('/proc/meminfo', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}
