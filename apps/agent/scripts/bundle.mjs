#!/usr/bin/env node
// The self-contained agent (issue 17): apps/agent/dist/cli.js with @gatehouse/contracts,
// @gatehouse/tunnel and ws bundled into one file, dist/gatehouse-agent.mjs, that runs on Node 20+
// with no node_modules. The server serves it (GET /api/agent/download/gatehouse-agent.mjs) and the
// install script (GET /api/agent/install.sh) puts it in /opt/gatehouse-agent.
//
// ws's optional native helpers are never bundled nor looked up on the host. `bufferutil` resolves to
// dist/ws-mask.js (src/ws-mask.ts: the same mask/unmask in JavaScript, four bytes at a time, about
// five times faster than ws's byte loop; issue 19). `utf-8-validate` resolves to a module that
// throws, which ws's own try/catch turns into its JavaScript fallback, as a plain `npm install ws`.
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const OPTIONAL_NATIVE = new Set(['utf-8-validate']);
const WORD_MASK = `${root}dist/ws-mask.js`;
const ABSENT = '\0gatehouse-absent-native';

await build({
  input: `${root}dist/cli.js`,
  platform: 'node',
  logLevel: 'warn',
  plugins: [
    {
      name: 'absent-optional-native',
      resolveId(id) {
        if (id === 'bufferutil') return WORD_MASK;
        return OPTIONAL_NATIVE.has(id) ? ABSENT : null;
      },
      load(id) {
        if (id !== ABSENT) return null;
        return "throw Object.assign(new Error('not bundled'), { code: 'MODULE_NOT_FOUND' });";
      },
    },
  ],
  output: {
    file: `${root}dist/gatehouse-agent.mjs`,
    format: 'esm',
    // One file: no chunks, no source map beside it.
    codeSplitting: false,
    sourcemap: false,
    minify: false,
    comments: { legal: true },
    // cli.js starts with its own #!/usr/bin/env node, which stays the first line.
    postBanner: `// gatehouse-agent ${version}: the Gatehouse agent in one file (Node 20 or later, no node_modules).`,
  },
});

const file = `${root}dist/gatehouse-agent.mjs`;
chmodSync(file, 0o755);
const bytes = readFileSync(file);
const sha256 = createHash('sha256').update(bytes).digest('hex');
writeFileSync(
  `${root}dist/gatehouse-agent.json`,
  `${JSON.stringify({ file: 'gatehouse-agent.mjs', version, sha256, bytes: bytes.length }, null, 2)}\n`,
);
// The install script's template, filled in by the server when it serves it.
copyFileSync(`${root}scripts/install.sh`, `${root}dist/install.sh`);
process.stdout.write(`apps/agent/dist/gatehouse-agent.mjs ${version} ${bytes.length} bytes sha256 ${sha256}\n`);
