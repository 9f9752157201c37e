import { type KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { HttpError } from '../../http/errors.js';
import { bundleFileName, evidenceBundle, fileDigest } from '../../recordings/bundle.js';
import { type SignedManifest, type SignedVideoManifest, keyFingerprint } from '../../recordings/chain.js';
import type { RecordingRow, RecordingsRepository } from '../../recordings/recordings.repository.js';
import type { RecordingObjects } from '../../recordings/recording-objects.js';
import { storageError } from '../../recordings/object-store.js';
import { playbackOf, videoPathOf } from '../../recordings/video.service.js';
import { verifyVideo } from '../../recordings/video-verify.js';
import type { Principal } from '../auth/principal.js';
import type { SessionsService } from './sessions.service.js';

/** A bundle ready to send: its name, exact length and bytes. */
export interface BundleDownload {
  fileName: string;
  size: number;
  stream: Readable;
}

/**
 * Evidence bundles of finished sessions, for whoever may watch the session (the policy decides,
 * through SessionsService.forWatcher). Everything is read from the recording storage and the
 * database as stored: the bundle shows what there is, and the verifier judges it.
 */
export class EvidenceBundles {
  constructor(
    private readonly rows: RecordingsRepository,
    private readonly sessions: SessionsService,
    private readonly keys: () => Promise<{ signingKey: string }>,
  ) {}

  /** Object storage, when configured (services.ts sets it): stored recordings are bundled from a fresh copy. */
  objects: RecordingObjects | undefined;

  /** The bundle of one session, or a 404/409 saying why there is none. */
  async open(principal: Principal, id: string): Promise<BundleDownload> {
    const row = await this.sessions.forWatcher(principal, id);
    const objects = this.objects;
    if (!objects?.stored(row)) return this.bundle(row, row.storagePath);
    let copy: Awaited<ReturnType<RecordingObjects['copy']>>;
    try {
      copy = await objects.copy(row, row.hasVideo && row.videoFinal);
    } catch (error) {
      throw new HttpError(503, `The object storage could not be read (${storageError(error)}); try again in a moment.`);
    }
    try {
      const download = await this.bundle(row, copy.castPath);
      download.stream.once('close', () => void copy.release());
      return download;
    } catch (error) {
      await copy.release();
      throw error;
    }
  }

  private async bundle(row: RecordingRow, castPath: string): Promise<BundleDownload> {
    if (!row.endedOn)
      throw new HttpError(409, 'The session is live: its evidence bundle exists once the session ends and is signed.');
    if (!row.manifest)
      throw new HttpError(409, 'This recording has no signed manifest, so there is no evidence bundle to make.');
    const manifest = row.manifest as SignedManifest;
    const [cast, chain] = await Promise.all([
      fs.stat(castPath).catch(() => undefined),
      fs.stat(`${castPath}.chain`).catch(() => undefined),
    ]);
    if (!cast || !chain) throw new HttpError(404, 'The recording’s files are missing from the recording storage.');
    const signingKey = createPrivateKey((await this.keys()).signingKey);
    const current = keyFingerprint(signingKey);
    const signedBy = (() => {
      try {
        return keyFingerprint(manifest.public_key);
      } catch {
        return 'an unreadable key';
      }
    })();
    // Bundle-time statements are signed with the key that signed the manifest, so one key checks all.
    if (signedBy !== current)
      throw new HttpError(
        409,
        `This recording was signed with the key ${signedBy}, not with this server’s current key ${current}: its bundle cannot be signed with one key.`,
      );
    let video: { sha256: string; bytes: number } | undefined;
    if (row.hasVideo && row.videoBytes > 0) {
      if (playbackOf(row).live)
        throw new HttpError(409, 'The session’s video is still being uploaded: try again once it is complete.');
      await this.videoMatchesItsSignature(row, castPath, signingKey);
      video = await fileDigest(videoPathOf(castPath), row.videoBytes).catch(() => {
        throw new HttpError(404, 'The session’s video is missing from the recording storage.');
      });
    }
    const { size, stream } = evidenceBundle({
      recordingId: row.id,
      endedOn: row.endedOn,
      cast: { path: castPath, size: cast.size },
      chain: { path: `${castPath}.chain`, size: chain.size },
      manifest,
      checkpoints: await this.rows.checkpoints(row.id),
      video,
      signingKey,
    });
    return { fileName: bundleFileName(row.id), size, stream };
  }

  /**
   * The bundle signs a statement of the video as it is now: only once the video matches the
   * digests committed piece by piece and its signed video manifest (migration 0025), so a bundle
   * never vouches for a changed video. Videos stored before digests existed are bundled as they are.
   */
  private async videoMatchesItsSignature(row: RecordingRow, castPath: string, key: KeyObject): Promise<void> {
    const videoManifest = row.videoManifest as SignedVideoManifest | null;
    if (row.videoChainHead === null && !videoManifest) return;
    if (!videoManifest)
      throw new HttpError(
        409,
        'The session’s video is not signed yet (still uploading, or signed as cut 10 minutes after the session ended): try again then.',
      );
    const file = videoPathOf(castPath);
    const found = await verifyVideo({
      recordingId: row.id,
      manifest: videoManifest,
      publicKey: createPublicKey(key),
      pieces: await this.rows.videoPieces(row.id),
      open: async () =>
        (await fs.stat(file).then(
          () => true,
          () => false,
        ))
          ? createReadStream(file)
          : undefined,
      committed: { bytes: row.videoBytes, pieces: row.videoPieces, chainHead: row.videoChainHead },
      terminal: (row.manifest as SignedManifest | null)?.video,
      final: true,
    });
    if (found.status !== 'intact')
      throw new HttpError(
        409,
        `The session’s video does not match its signed digests, so no bundle vouches for it: ${found.problems.join('; ')}.`,
      );
  }
}
