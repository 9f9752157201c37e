#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import type { SignedManifest } from '../recordings/chain.js';
import { verifyRecording } from '../recordings/verify.js';

/**
 * `npm run verify-recording -- FILE.cast [--public-key FILE]`: checks a finished recording
 * against its signed manifest (FILE.cast.manifest.json) and the server's public signing key
 * (by default GATEHOUSE_DATA_DIR/recording-signing.pub). Exit 0 when intact, 1 when not.
 */
async function main(argv: string[]): Promise<number> {
  const file = argv.find((a) => !a.startsWith('--'));
  const keyFlag = argv.indexOf('--public-key');
  if (!file) {
    process.stderr.write('Usage: npm run verify-recording -- FILE.cast [--public-key recording-signing.pub]\n');
    return 2;
  }
  const keyFile =
    keyFlag >= 0 ? argv[keyFlag + 1] : path.join(process.env.GATEHOUSE_DATA_DIR ?? './data', 'recording-signing.pub');
  if (!keyFile || !fs.existsSync(keyFile)) {
    process.stderr.write(`No public key at ${keyFile}: pass --public-key with the server's recording-signing.pub.\n`);
    return 2;
  }
  const manifestFile = `${file}.manifest.json`;
  if (!fs.existsSync(manifestFile)) {
    process.stderr.write(`${manifestFile} is missing: the recording is still live, or its manifest was removed.\n`);
    return 1;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as SignedManifest;
  const result = await verifyRecording(file, manifest, fs.readFileSync(keyFile, 'utf8'));
  if (result.intact) {
    process.stdout.write(
      `intact: ${manifest.chunks} chunks, ${manifest.bytes} bytes, ended ${manifest.ended_on} (${manifest.end_reason})\n`,
    );
    return 0;
  }
  process.stdout.write(`TAMPERED:\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  },
);
