// Compiles apps/server/src/recordings/json-escape.wat with wabt (WebAssembly's own toolkit, built
// to JavaScript) and writes the module, in base64, into json-escape.ts's JSON_ESCAPE_WASM.
//   node scripts/json-escape-wasm.mjs            rewrites the constant
//   node scripts/json-escape-wasm.mjs --print    prints the base64 only
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, 'apps/server/src/recordings');
const require = createRequire(path.join(root, 'apps/server/package.json'));

export async function compileJsonEscape() {
  const wabt = await require('wabt')();
  const source = fs.readFileSync(path.join(dir, 'json-escape.wat'), 'utf8');
  const parsed = wabt.parseWat('json-escape.wat', source, { simd: true });
  try {
    parsed.validate();
    return Buffer.from(parsed.toBinary({}).buffer).toString('base64');
  } finally {
    parsed.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const base64 = await compileJsonEscape();
  if (process.argv.includes('--print')) console.log(base64);
  else {
    const file = path.join(dir, 'json-escape.ts');
    const text = fs.readFileSync(file, 'utf8').replace(/(JSON_ESCAPE_WASM =\n\s*')[^']*(')/, `$1${base64}$2`);
    fs.writeFileSync(file, text);
    console.log(`json-escape.ts: ${Buffer.from(base64, 'base64').length} bytes of WebAssembly`);
  }
}
