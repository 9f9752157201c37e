import fs from 'node:fs/promises';
import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { recordings } from '../../db/schema.js';
import { videoChainPathOf, videoManifestPathOf, videoPathOf } from '../../recordings/video.service.js';
import type { RecordingObjects } from '../../recordings/recording-objects.js';
import { storageError } from '../../recordings/object-store.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { SettingsService } from '../settings/settings.service.js';

/** Recordings removed per round, so one sweep never holds a long transaction. */
const BATCH = 500;

/**
 * Recording retention (general setting recording_retention_days; 0 keeps everything): finished
 * recordings older than that are really removed — their rows, then the files (cast, chain,
 * manifest, video) of the rows this sweep's DELETE removed. Several instances may sweep at once:
 * each row is claimed by the one whose DELETE removes it, and removing a file twice is harmless.
 * A recording on legal hold is never removed: both the selection and the DELETE itself take only
 * rows with legal_hold = false, so a hold placed between them still wins; how many expired
 * recordings were kept for a hold is logged and audited.
 */
export class RecordingRetention {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly audit: AuditRepository,
    private readonly log: FastifyBaseLogger,
    /** Object storage, when configured: a removed recording's objects go too (after its row, so a hold wins). */
    private readonly objects?: RecordingObjects,
  ) {}

  /** Removes what is past retention now; answers how many recordings went. */
  async sweep(): Promise<number> {
    const { recording_retention_days: days } = await this.settings.get();
    if (!days) return 0;
    const expired = and(
      isNotNull(recordings.endedOn),
      lt(recordings.endedOn, sql`now() - make_interval(days => ${days})`),
    );
    const removable = and(expired, eq(recordings.legalHold, false));
    let removed = 0;
    for (;;) {
      const batch = await this.db
        .select({ id: recordings.id, storagePath: recordings.storagePath })
        .from(recordings)
        .where(removable)
        .limit(BATCH);
      if (batch.length === 0) break;
      const gone = await this.db
        .delete(recordings)
        .where(
          and(
            inArray(
              recordings.id,
              batch.map((r) => r.id),
            ),
            eq(recordings.legalHold, false),
          ),
        )
        .returning({ id: recordings.id, storagePath: recordings.storagePath, objectKey: recordings.objectKey });
      for (const row of gone) {
        await Promise.all(
          [
            row.storagePath,
            `${row.storagePath}.chain`,
            `${row.storagePath}.manifest.json`,
            videoPathOf(row.storagePath),
            videoManifestPathOf(row.storagePath),
            videoChainPathOf(row.storagePath),
          ].map((file) => fs.rm(file, { force: true })),
        );
        if (row.objectKey && this.objects) {
          const key = row.objectKey;
          await this.objects
            .remove(key)
            .catch((err: unknown) =>
              this.log.warn(
                { recording: row.id, key, why: storageError(err) },
                'a removed recording’s objects could not be deleted from the object storage: delete them there',
              ),
            );
        }
      }
      removed += gone.length;
      if (batch.length < BATCH) break;
    }
    const [held] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(recordings)
      .where(and(expired, eq(recordings.legalHold, true)));
    const keptOnHold = held?.n ?? 0;
    if (removed > 0 || keptOnHold > 0) {
      this.log.info(
        { removed, kept_on_hold: keptOnHold, days },
        'recordings past retention removed; those on legal hold kept',
      );
      await this.audit.append({
        actor: 'system',
        action: 'recording.retention',
        target: null,
        outcome: 'success',
        detail: { removed, kept_on_hold: keptOnHold, retention_days: days },
      });
    }
    return removed;
  }
}
