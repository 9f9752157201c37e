// Loaded before every server test file (vitest.config.ts): ssh2 then loads as in the server, with its
// packets' padding pooled (gateway/ssh2-padding.ts, the server's first import in main.ts).
import '../gateway/ssh2-padding.js';
