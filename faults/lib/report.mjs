// How the fault suite prints: one block per probe as it finishes, then a Markdown table to paste into
// docs/RELIABILITY.md.
import { mib } from './server.mjs';

/** A probe's result as the probes fill it. */
export function newResult(name, mode) {
  return { name, mode, happened: [], lost: '—', failures: [], notes: [], skipped: undefined, rss: undefined };
}

export const verdictOf = (r) => (r.skipped ? 'SKIP' : r.failures.length ? 'FAIL' : 'PASS');

const rssText = (r) =>
  r.rss && r.rss.start ? `${mib(r.rss.start)} → ${mib(r.rss.peak)} MiB (+${mib(r.rss.peak - r.rss.start)})` : '—';

/** The block printed as soon as a probe ends. */
export function printResult(r) {
  const head = `${verdictOf(r).padEnd(5)} ${r.mode.padEnd(9)} ${r.name.padEnd(20)}`;
  if (r.skipped) {
    console.log(`${head} ${r.skipped}`);
    return;
  }
  console.log(`${head} server RSS ${rssText(r)}   lost: ${r.lost}`);
  for (const line of r.happened) console.log(`      ${line}`);
  for (const line of r.notes) console.log(`      note: ${line}`);
  for (const line of r.failures) console.log(`      ✗ ${line}`);
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** The Markdown table of every result. */
export function markdown(results) {
  const lines = [
    '| Fault | Database | What happened | Lost | Server RSS start → peak | Verdict |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const verdict = verdictOf(r) === 'FAIL' ? `FAIL: ${r.failures.join('; ')}` : verdictOf(r);
    const happened = r.skipped ?? r.happened.join('; ');
    lines.push(
      `| ${cell(r.name)} | ${cell(r.mode)} | ${cell(happened)} | ${cell(r.skipped ? '—' : r.lost)} | ${cell(rssText(r))} | ${cell(verdict)} |`,
    );
  }
  return lines.join('\n');
}
