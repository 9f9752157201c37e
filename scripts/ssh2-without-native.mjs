// `node --import ./scripts/ssh2-without-native.mjs …`: ssh2 loads as on a machine where its native
// crypto add-on was not built (`npm ci --ignore-scripts`, no compiler): its require of the add-on
// fails, so ssh2 computes chacha20-poly1305 in JavaScript and AES through Node's crypto. Used by the
// benches (scripts/bench-ciphers.mjs) and the fallback test (apps/server/src/gateway/ssh-ciphers.test.ts).
import Module from 'node:module';

const load = Module._load;
Module._load = function loadWithoutSsh2Native(request, ...rest) {
  if (typeof request === 'string' && request.endsWith('sshcrypto.node'))
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  return load.call(this, request, ...rest);
};
