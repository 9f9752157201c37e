#!/usr/bin/env node
import fs from 'node:fs';
import { type SignedManifest, type SignedVideoManifest, keyFingerprint } from '../recordings/chain.js';
import { verifyRecording } from '../recordings/verify.js';
import { verifyVideo, videoPiecesFromFile } from '../recordings/video-verify.js';

const USAGE =
  'Usage: npm run verify-recording -- FILE.cast --key FINGERPRINT_OR_PUBLIC_KEY_FILE\n' +
  '  --key  the signing key to trust: its fingerprint (SHA256:…, shown in Settings and printed at the\n' +
  '         server’s start) or a file holding the public key (PEM)\n';

/** The fingerprint the caller trusts: given as such, or that of the public key in a file. */
function trustedFingerprint(key: string): string {
  if (/^SHA256:[A-Za-z0-9+/]{43}$/.test(key)) return key;
  if (!fs.existsSync(key))
    throw new Error(`--key ${key} is neither a fingerprint (SHA256:…) nor a public key file that exists.`);
  try {
    return keyFingerprint(fs.readFileSync(key, 'utf8'));
  } catch {
    throw new Error(`--key ${key} does not hold a public key in PEM.`);
  }
}

/**
 * `npm run verify-recording -- FILE.cast --key FINGERPRINT_OR_PEM_FILE`: checks a finished
 * recording against its signed manifest (FILE.cast.manifest.json), trusting only the key given,
 * never a key found beside the recordings (whoever can write them could have replaced it); an RDP
 * session's video beside it (FILE.mp4) is checked against its signed video manifest too.
 * Exit 0 when intact, 1 when not, 2 when it cannot be checked.
 */
async function main(argv: string[]): Promise<number> {
  const flag = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? (argv[at + 1] ?? '') : undefined;
  };
  // --public-key FILE (the earlier form) still works, as an explicit key file.
  const key = flag('--key') ?? flag('--public-key');
  const file = argv.find((a, i) => !a.startsWith('--') && !['--key', '--public-key'].includes(argv[i - 1] ?? ''));
  if (!file) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (!key) {
    process.stderr.write(
      'Which key to trust? Pass --key with the recording signing key’s fingerprint (SHA256:…, in Settings ' +
        'under Recording signatures, and printed when the server starts) or a public key file. The command ' +
        'does not trust the data folder’s recording-signing.pub on its own: whoever can write the folder ' +
        `could have replaced it.\n${USAGE}`,
    );
    return 2;
  }
  let trusted: string;
  try {
    trusted = trustedFingerprint(key);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const manifestFile = `${file}.manifest.json`;
  if (!fs.existsSync(manifestFile)) {
    process.stderr.write(
      `${manifestFile} is missing: a live session's recording is signed when it ends; otherwise the manifest was removed.\n`,
    );
    return 1;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as SignedManifest;
  let signer: string;
  try {
    signer = keyFingerprint(manifest.public_key);
  } catch {
    process.stdout.write('TAMPERED:\n  - the manifest’s public key is not a public key\n');
    return 1;
  }
  const result = await verifyRecording(file, manifest, manifest.public_key);
  if (signer !== trusted) result.problems.unshift(`the manifest is signed with ${signer}, not with ${trusted}`);
  const video = await checkVideo(file, manifest, trusted);
  result.problems.push(...video.problems);
  if (result.problems.length === 0) {
    process.stdout.write(
      `intact: ${manifest.chunks} chunks, ${manifest.bytes} bytes, ended ${manifest.ended_on} (${manifest.end_reason}), signed with ${signer}\n`,
    );
    if (video.line) process.stdout.write(`${video.line}\n`);
    return video.unsigned ? 1 : 0;
  }
  process.stdout.write(`TAMPERED:\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  return 1;
}

/**
 * The RDP video beside the cast (FILE.mp4), when there is one or the manifest states one: its
 * pieces (FILE.mp4.chain) against its bytes, the chain and the signed video manifest
 * (FILE.mp4.manifest.json), signed with the trusted key. A video not signed yet (still uploading,
 * or its manifest removed) is said so and does not pass.
 */
async function checkVideo(
  file: string,
  manifest: SignedManifest,
  trusted: string,
): Promise<{ problems: string[]; line?: string; unsigned?: boolean }> {
  const video = `${file.replace(/\.cast$/, '')}.mp4`;
  const manifestFile = `${video}.manifest.json`;
  const hasVideo = fs.existsSync(video) || fs.existsSync(manifestFile) || manifest.video !== undefined;
  if (!hasVideo) return { problems: [] };
  if (!fs.existsSync(manifestFile)) {
    if (manifest.video) return { problems: ['the video’s signed manifest (.mp4.manifest.json) is missing'] };
    return {
      problems: [],
      unsigned: true,
      line:
        `video: NOT SIGNED YET: ${video} has no signed video manifest (${manifestFile}); it is signed when its ` +
        'upload completes, or as cut 10 minutes after the session ended. Nothing covers it until then.',
    };
  }
  const videoManifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as SignedVideoManifest;
  const problems: string[] = [];
  let signer: string | undefined;
  try {
    signer = keyFingerprint(videoManifest.public_key);
  } catch {
    problems.push('the video manifest’s public key is not a public key');
  }
  if (signer && signer !== trusted) problems.push(`the video manifest is signed with ${signer}, not with ${trusted}`);
  const chainFile = `${video}.chain`;
  if (!fs.existsSync(chainFile)) problems.push('the video’s piece list (.mp4.chain) is missing');
  const found = await verifyVideo({
    recordingId: manifest.recording_id,
    manifest: videoManifest,
    publicKey: videoManifest.public_key,
    pieces: fs.existsSync(chainFile) ? videoPiecesFromFile(chainFile, (p) => problems.push(p)) : [],
    open: async () => (fs.existsSync(video) ? fs.createReadStream(video) : undefined),
    terminal: manifest.video,
    final: true,
  });
  problems.push(...found.problems);
  const cut = videoManifest.end === 'cut' ? ', its upload never completed: signed as cut' : '';
  return {
    problems,
    line: `video intact: ${found.pieces} pieces, ${found.bytes} bytes${cut}, signed with ${signer ?? '?'}`,
  };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  },
);
