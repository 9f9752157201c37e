// `npm run bench` (last step): the console's initial JavaScript, gzipped, against the 300 KB budget of
// issue 6. "Initial" is what index.html loads before any lazy chunk: its module scripts, its
// modulepreload links, and every chunk those import statically (import() does not count: the terminal,
// charts, video player and each screen load that way). Reads apps/web/dist, building it first when
// it is missing or with --build; --dist <folder> reads another build; --check exits 1 over budget.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 300 * 1000; // 300 kB as Vite counts them
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const distArg = args.indexOf('--dist');
const dist = path.resolve(distArg >= 0 ? (args[distArg + 1] ?? '') : path.join(root, 'apps/web/dist'));
const indexFile = path.join(dist, 'index.html');

if (args.includes('--build') || (distArg < 0 && !fs.existsSync(indexFile))) {
  console.log('building the console (npm run build -w @gatehouse/web)…');
  execFileSync('npm', ['run', 'build', '-w', '@gatehouse/web'], { cwd: root, stdio: 'ignore' });
}
if (!fs.existsSync(indexFile)) {
  console.error(`no console build at ${dist} (run npm run build)`);
  process.exit(2);
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
// The default zlib level (6): what a server compressing on the fly sends; -9 saves about 1 %.
const gzipped = (file) => gzipSync(fs.readFileSync(file)).length;
const inDist = (fromFile, ref) => path.resolve(path.dirname(fromFile), ref.split(/[?#]/)[0] ?? '');

// index.html: <script type="module" src> and <link rel="modulepreload" href>, relative to the page.
const html = fs.readFileSync(indexFile, 'utf8');
const tags = [...html.matchAll(/<(script|link)\b[^>]*>/gi)].map((match) => match[0]);
const attr = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
const entries = tags.flatMap((tag) => {
  const isScript = /^<script/i.test(tag) && attr(tag, 'src');
  const isPreload = /^<link/i.test(tag) && attr(tag, 'rel')?.toLowerCase() === 'modulepreload';
  const ref = isScript ? attr(tag, 'src') : isPreload ? attr(tag, 'href') : undefined;
  return ref && !/^[a-z]+:\/\//i.test(ref) ? [inDist(indexFile, ref)] : [];
});

// Static imports of a minified chunk: `import{a as b}from"./x.js"`, `import"./x.js"`, `export{…}from"./x.js"`.
// A dynamic import("./x.js") has a parenthesis after the keyword and is left out on purpose.
const staticImport = /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{},\s]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const initial = new Set();
const visit = (file) => {
  if (initial.has(file) || !fs.existsSync(file)) return;
  initial.add(file);
  const code = fs.readFileSync(file, 'utf8');
  for (const match of code.matchAll(staticImport)) visit(inDist(file, match[1] ?? ''));
};
entries.forEach(visit);

const rows = [...initial].map((file) => ({
  name: path.relative(dist, file),
  raw: fs.statSync(file).size,
  gz: gzipped(file),
}));
rows.sort((a, b) => b.gz - a.gz);
const total = rows.reduce((sum, row) => sum + row.gz, 0);
const totalRaw = rows.reduce((sum, row) => sum + row.raw, 0);

const shown = dist.startsWith(`${root}${path.sep}`) ? path.relative(root, dist) : dist;
console.log(`console initial JavaScript (${shown}/index.html, gzip level 6)`);
for (const row of rows)
  console.log(`  ${row.name.padEnd(46)} ${kb(row.raw).padStart(10)}  gzip ${kb(row.gz).padStart(9)}`);
console.log(
  `initial JS total                 ${kb(totalRaw)} raw, ${kb(total)} gzip  ` +
    `total/budget ${(total / BUDGET_BYTES).toFixed(3)} (budget ${kb(BUDGET_BYTES)} gzip)` +
    (total > BUDGET_BYTES ? '  OVER BUDGET' : ''),
);

const assets = path.join(dist, 'assets');
const lazy = fs
  .readdirSync(assets)
  .filter((name) => name.endsWith('.js'))
  .map((name) => path.join(assets, name))
  .filter((file) => !initial.has(file))
  .map((file) => ({ name: path.relative(dist, file), raw: fs.statSync(file).size, gz: gzipped(file) }))
  .sort((a, b) => b.gz - a.gz);
const lazyTotal = lazy.reduce((sum, row) => sum + row.gz, 0);
console.log(`lazy chunks: ${lazy.length}, ${kb(lazyTotal)} gzip in all; the largest:`);
for (const row of lazy.slice(0, 8)) {
  console.log(`  ${row.name.padEnd(46)} ${kb(row.raw).padStart(10)}  gzip ${kb(row.gz).padStart(9)}`);
}

if (args.includes('--check') && total > BUDGET_BYTES) process.exitCode = 1;
