#!/usr/bin/env node
// Node 20 truth: every package the lockfile installs must accept the Node.js the README asks for
// (package.json "engines"), so `npm ci` prints no EBADENGINE warning. Exit 1 names each offender.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const semver = require('semver');
const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const wanted = semver.minVersion(root.engines.node);
if (!wanted) throw new Error(`package.json engines.node is not a range: ${root.engines.node}`);
const versions = [wanted.version, process.versions.node];
const bad = [];
for (const [where, pkg] of Object.entries(lock.packages ?? {})) {
  const range = pkg.engines?.node;
  if (!where || typeof range !== 'string') continue;
  for (const v of versions) {
    if (!semver.satisfies(v, range))
      bad.push(`${where.replace(/^.*node_modules\//, '')}@${pkg.version} needs node ${range} (checked ${v})`);
  }
}
if (bad.length > 0) {
  console.error(`engines: ${bad.length} package(s) refuse Node ${versions.join(' / ')}:\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(`engines: every locked package accepts Node ${versions.join(' and ')}`);
