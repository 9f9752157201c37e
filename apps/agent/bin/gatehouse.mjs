#!/usr/bin/env node
// `gatehouse` (tunnel, verify): a committed launcher, so npm links the command on `npm ci` even
// before the build has made dist/ (npx would otherwise fetch an unrelated package of that name).
import { existsSync } from 'node:fs';

const target = new URL('../dist/tunnel-cli.js', import.meta.url);
if (!existsSync(target)) {
  process.stderr.write(
    'gatehouse: the agent is not built yet (apps/agent/dist is missing): run npm run build first.\n',
  );
  process.exit(2);
}
await import(target.href);
