import { config } from 'zod/v4/core';

// zod compiles object parsers with `new Function` when it may, and probes for that once with a
// caught `new Function("")`. The server's Content-Security-Policy allows no eval, so the probe
// logged a CSP violation in the console on every screen that parses a schema (issue 20). Jitless
// parsing skips both the probe and the compiled parsers; the console parses small answers only.
config({ jitless: true });
