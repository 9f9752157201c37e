#!/usr/bin/env node
// `gatehouse-agent`: a committed launcher, so npm links the command on `npm ci` even before the
// build has made dist/.
import { existsSync } from 'node:fs';

const target = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(target)) {
  process.stderr.write(
    'gatehouse-agent: the agent is not built yet (apps/agent/dist is missing): run npm run build first.\n',
  );
  process.exit(2);
}
await import(target.href);
