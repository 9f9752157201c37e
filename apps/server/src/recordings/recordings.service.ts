import { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type DatabaseHealth, isDatabaseUnavailable } from '../db/health.js';
import { logFailure } from '../lib/detach.js';
import { type KeyObject, createPrivateKey } from 'node:crypto';
import type { AuditInput } from '../modules/audit/audit.repository.js';
import {
  type ManifestBody,
  type SignedCheckpoint,
  type SignedManifest,
  chainStart,
  signCheckpoint,
  signManifest,
} from './chain.js';
import {
  CHECKPOINT_BATCH_ROWS,
  CHECKPOINT_MS,
  EMBEDDED_BATCH_ROWS,
  ProgressBatcher,
  ProgressCommitter,
} from './progress.js';
import { type FlushedChunk, type LiveChunk, Recorder } from './recorder.js';
import type { RecordingRow, RecordingsRepository } from './recordings.repository.js';
import { type OrphanFinding, cutUncommitted, inspectOrphan } from './recovery.js';
import type { RecordingObjects } from './recording-objects.js';

/** A session being recorded right now, on this instance. */
export interface LiveRecording {
  id: string;
  row: RecordingRow;
  recorder: Recorder;
  /** Ends the session for a reason; the terminator is named when an administrator ended it. */
  terminate?: (by: string) => void;
}

/** Asks the other server instances to end a session; answers whether one of them held it. */
export type RemoteTerminator = (id: string, by: string) => Promise<boolean>;

/**
 * Session recordings: files in the data folder (never SQL), rows with their progress, signed
 * manifests when they end, and recovery of recordings whose process died.
 * Events: 'live' (id, LiveChunk) for watchers of sessions that have some, 'ended' (id, reason).
 */
export class RecordingsService extends EventEmitter {
  private readonly live = new Map<string, LiveRecording>();
  /** Orphans whose files could not be read, and the last error's code (logged once each). */
  private readonly unreadable = new Map<string, string>();
  private readonly heartbeat: NodeJS.Timeout;
  /** Each live recording's chain progress, committed to its row chunk by chunk (by recording id). */
  private readonly committers = new Map<string, ProgressCommitter>();
  /** The one stream of progress statements shared by every live recording here. */
  private readonly progressBatch = new ProgressBatcher((rows) => this.repository.progressMany(rows));
  private readonly checkpoints: NodeJS.Timeout;
  private checkpointing: Promise<void> | undefined;
  private parsedKey: { pem: string; key: KeyObject } | undefined;
  /** Appends to the audit trail (services.ts sets it): recoveries whose files disagree with the database. */
  audit: ((entry: AuditInput) => Promise<void>) | undefined;
  private remoteTerminator: RemoteTerminator | undefined;
  /** Rows whose final write waits for the database (by recording id): written again when it returns. */
  private readonly unsaved = new Map<string, () => Promise<void>>();
  private health: DatabaseHealth | undefined;
  /** Recordings being started (their row may exist before they are live): never orphans. */
  private readonly starting = new Set<string>();
  /**
   * Recordings being finished (no longer live, their row not yet ended): never orphans either,
   * or the sweep would recover, cut and sign a session while finish() writes it.
   */
  private readonly ending = new Set<string>();
  /** Live here, but taken over by another instance after this one was declared gone. */
  private readonly takenOver = new Set<string>();
  /**
   * The id of this server instance (cluster/instance-registry.ts): live rows name it, so another
   * instance recovers them as soon as this one is known gone.
   */
  instanceId: () => string | undefined = () => undefined;
  /**
   * Bench only (scripts/bench-gateway.mjs sets it on its in-process server to measure the gateway
   * without the recorder): false keeps rows and files but records no terminal bytes. Nothing in
   * the server or its configuration sets it.
   */
  recordTerminal = true;
  /**
   * Object storage (GATEHOUSE_S3_*; services.ts sets it): live recordings' new bytes go up as
   * segments, ended ones as final objects, and their local files are removed (ADR 0008).
   */
  objects: RecordingObjects | undefined;
  /**
   * RDP videos (services.ts sets it): the recovery sweep also signs, as cut, the videos of ended
   * sessions whose upload never said final (video.service.ts sealAbandoned).
   */
  videos: { sealAbandoned(): Promise<number> } | undefined;

  constructor(
    private readonly repository: RecordingsRepository,
    private readonly dataDir: string,
    private readonly signingKey: () => Promise<string>,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
    // Live sessions that print nothing still prove their instance is alive.
    this.heartbeat = setInterval(() => void this.beat().catch(() => undefined), 10_000);
    this.heartbeat.unref();
    // Signed checkpoints of live sessions that wrote something since the last one.
    this.checkpoints = setInterval(() => void this.checkpoint(), CHECKPOINT_MS);
    this.checkpoints.unref();
  }

  /** Starts a session's recording. */
  async start(input: {
    type: 'ssh' | 'rdp' | 'generic' | 'agent';
    agentId: string;
    hostname: string;
    userId: string | null;
    userEmail: string;
    definitionId: string;
    definitionName: string;
    width: number;
    height: number;
    term?: string;
    /** What the session's first channel is (shell, exec, sftp, scp, forward) and an exec's command. */
    kind?: string;
    command?: string | null;
  }): Promise<LiveRecording> {
    const now = new Date();
    const dir = path.join(
      this.dataDir,
      'recordings',
      String(now.getUTCFullYear()),
      String(now.getUTCMonth() + 1).padStart(2, '0'),
    );
    await fs.mkdir(dir, { recursive: true });
    const id = crypto.randomUUID();
    const file = path.join(dir, `${id}.cast`);
    const recorder = await Recorder.create(file, id, {
      width: input.width,
      height: input.height,
      term: input.term,
      title: `${input.userEmail} on ${input.hostname}`,
    });
    // The header is all the file holds yet: its end and digest are committed with the row.
    const headerBytes = (await fs.stat(file)).size;
    const { term: _term, ...values } = input;
    this.starting.add(id);
    let row: RecordingRow;
    try {
      row = await this.repository.create({
        ...values,
        id,
        storagePath: file,
        chainHead: chainStart(id),
        bytes: headerBytes,
        headerSha256: recorder.headerSha256,
        instanceId: this.instanceId() ?? null,
        objectKey: this.objects?.keyFor(id) ?? null,
      });
    } finally {
      this.starting.delete(id);
    }
    recorder.on('live', (chunk: LiveChunk) => this.emit('live', id, chunk));
    // Every chunk's progress is committed to the row as it is written: recovery signs only that.
    const committer = new ProgressCommitter(
      { seq: 0, bytes: headerBytes, chainHead: chainStart(id) },
      (p) => this.progressBatch.write(id, p),
      (err) => logFailure(this.log, err, 'recording progress not committed'),
    );
    this.committers.set(id, committer);
    if (row.objectKey) this.objects?.track(id, row.objectKey, file);
    recorder.on('chunk', (chunk: FlushedChunk) => committer.chunk(chunk));
    const live: LiveRecording = { id, row, recorder };
    this.live.set(id, live);
    this.emit('started', id);
    return live;
  }

  /**
   * Every live session's heartbeat, a statement's worth of rows at a time with a turn of the event
   * loop between (a statement per session was, with a hundred sessions, 60 ms of the gateway's
   * thread in one turn every 10 s on the embedded database).
   */
  private async beat(): Promise<void> {
    const ids = [...this.live.keys(), ...this.unsaved.keys()];
    const rows = this.progressBatch.rowsPerStatement;
    for (let at = 0; at < ids.length; at += rows) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      await this.repository.heartbeat(ids.slice(at, at + rows));
    }
  }

  /**
   * The database runs on the gateway's own thread (embedded): progress goes in statements of
   * EMBEDDED_BATCH_ROWS rows, so that no one statement holds the thread long.
   */
  useEmbeddedDatabase(): void {
    this.progressBatch.rowsPerStatement = EMBEDDED_BATCH_ROWS;
  }

  /** Settles once every chunk of a live recording here that reached the disk is committed (or failed to be). */
  async committed(id: string): Promise<void> {
    await this.committers.get(id)?.settled();
  }

  /** The live recording with this id on this instance. */
  find(id: string): LiveRecording | undefined {
    return this.live.get(id);
  }

  /** Someone watches this session (on any instance): answers whether it is live here. */
  watch(id: string): boolean {
    this.live.get(id)?.recorder.watched();
    return this.live.has(id);
  }

  /** How to reach sessions on other instances (the console sockets set it when Redis is configured). */
  setRemoteTerminator(terminator: RemoteTerminator | undefined): void {
    this.remoteTerminator = terminator;
  }

  /**
   * Ends a session wherever it runs: here directly, otherwise through the other instances (with
   * Redis). Answers false when no instance holds it.
   */
  async requestTerminate(id: string, by: string): Promise<boolean> {
    if (this.terminateHere(id, by)) return true;
    return (await this.remoteTerminator?.(id, by)) ?? false;
  }

  /** Ends a session live on this instance; false when it is not here (or already ending). */
  terminateHere(id: string, by: string): boolean {
    const live = this.live.get(id);
    if (!live?.terminate) return false;
    live.terminate(by);
    return true;
  }

  /** Flushes, signs the manifest, and closes the row. */
  async finish(live: LiveRecording, reason: string, terminatedBy?: string): Promise<SignedManifest | undefined> {
    if (!this.live.delete(live.id)) return undefined;
    this.ending.add(live.id);
    try {
      return await this.finishRow(live, reason, terminatedBy);
    } finally {
      this.ending.delete(live.id);
    }
  }

  private async finishRow(
    live: LiveRecording,
    reason: string,
    terminatedBy: string | undefined,
  ): Promise<SignedManifest | undefined> {
    this.committers.delete(live.id);
    const totals = await live.recorder.finish();
    if (this.takenOver.delete(live.id)) return this.giveBack(live);
    const body: ManifestBody = {
      recording_id: live.id,
      started_on: live.row.startedOn.toISOString(),
      ended_on: new Date().toISOString(),
      header_sha256: live.recorder.headerSha256,
      bytes: totals.bytes,
      chunks: totals.chunks,
      chain_head: totals.chainHead,
      end_reason: reason,
      ...(live.row.type === 'rdp' ? await this.finalVideo(live.id) : {}),
    };
    const manifest = signManifest(body, await this.signingKey());
    await fs.writeFile(`${live.row.storagePath}.manifest.json`, JSON.stringify(manifest, null, 2), { mode: 0o600 });
    const finished = {
      endedOn: new Date(body.ended_on),
      bytes: totals.bytes,
      chunks: totals.chunks,
      chainHead: totals.chainHead,
      manifest,
      endReason: reason,
      terminatedBy: terminatedBy ?? null,
    };
    // The file and its signed manifest are the record; the row follows once the database answers.
    await this.saveOrHold(live.id, () => this.repository.finish(live.id, finished));
    this.emit('ended', live.id, reason);
    this.store(live.id);
    return manifest;
  }

  /**
   * An RDP session's video when its upload was final before the session ended (the gateway's own
   * capture usually is): its totals go into the terminal manifest too. A video still arriving is
   * covered by its own signed video manifest alone (video.service.ts).
   */
  private async finalVideo(id: string): Promise<Pick<ManifestBody, 'video'>> {
    const row = await this.repository.find(id).catch(() => undefined);
    if (!row?.videoFinal || !row.videoChainHead || row.videoManifest === null) return {};
    return { video: { bytes: row.videoBytes, pieces: row.videoPieces, chain_head: row.videoChainHead } };
  }

  /**
   * Finalises recordings whose process died: what reached the disk is kept, the chain is read
   * back from its file, and the manifest says 'recovered'. With the embedded database this runs
   * at start for every open recording; with PostgreSQL only for those silent long enough.
   */
  async recoverOrphans(silentSeconds: number): Promise<number> {
    const self = this.instanceId();
    // Held here before the query or after it: a session that ended meanwhile was read still open.
    const busy = () => [...this.live.keys(), ...this.unsaved.keys(), ...this.starting, ...this.ending];
    const before = new Set(busy());
    const rows = await this.repository.orphans(silentSeconds, self);
    const after = new Set(busy());
    const orphans = rows.filter((r) => !before.has(r.id) && !after.has(r.id));
    for (const row of orphans) {
      try {
        // Read again: the row may have ended since the query (finished here or by another instance).
        if ((await this.repository.find(row.id))?.endedOn !== null) continue;
        // Taken over first, so two instances never recover one recording at once; if this one
        // dies halfway, the recording is its own and the next instance takes it over in turn.
        if (self && row.instanceId !== self && !(await this.repository.takeOver(row.id, row.instanceId, self))) {
          continue;
        }
        await this.recover(row);
      } catch (error) {
        this.log.error({ err: error, recording: row.id }, 'could not recover a recording');
      }
    }
    const cut = await this.videos?.sealAbandoned().catch((error: unknown) => {
      logFailure(this.log, error, 'unfinished videos not signed');
      return 0;
    });
    if (cut) this.log.info({ videos: cut }, 'videos whose upload never completed signed as cut');
    return orphans.length;
  }

  /** An ended recording's final objects, when object storage is configured (failures retried by its sweep). */
  private store(id: string): void {
    void this.objects?.finalize(id);
  }

  private async recover(original: RecordingRow): Promise<void> {
    let row = original;
    // Its instance died with its disk: the segments it uploaded while live are the files now.
    if (this.objects && row.objectKey && !(await exists(row.storagePath))) {
      const now = new Date();
      const file = path.join(
        this.dataDir,
        'recordings',
        String(now.getUTCFullYear()),
        String(now.getUTCMonth() + 1).padStart(2, '0'),
        `${row.id}.cast`,
      );
      if (await this.objects.restore(row, file)) {
        row = { ...row, storagePath: file };
        this.log.info({ recording: row.id }, 'a recording whose server stopped is recovered from its object segments');
      }
    }
    let found: OrphanFinding;
    try {
      found = await inspectOrphan(row.storagePath, row.id, {
        seq: row.chunks,
        bytes: row.bytes,
        chainHead: row.chainHead,
        headerSha256: row.headerSha256,
      });
    } catch (error) {
      // A file that cannot be read is not an empty one: leave both files and the row as they are
      // (still open, so the next sweep tries again), and say so once per recording and error.
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      const level = this.unreadable.get(row.id) === code ? 'debug' : 'error';
      this.unreadable.set(row.id, code);
      this.log[level](
        { err: error, recording: row.id, file: row.storagePath },
        'a recording whose server stopped cannot be read: left as it is, not recovered',
      );
      return;
    }
    this.unreadable.delete(row.id);
    // What was written after the last committed chunk was never committed: cut it. Files that
    // disagree with the database are left as they are, and the database's statements signed.
    await cutUncommitted(row.storagePath, found);
    if (!found.agrees) await this.reportTampered(row, found);
    const body: ManifestBody = {
      recording_id: row.id,
      started_on: row.startedOn.toISOString(),
      ended_on: row.lastFlushAt.toISOString(),
      header_sha256: found.signed.headerSha256,
      bytes: found.signed.bytes,
      chunks: found.signed.chunks,
      chain_head: found.signed.chainHead,
      end_reason: 'recovered',
    };
    const manifest = signManifest(body, await this.signingKey());
    await fs.writeFile(`${row.storagePath}.manifest.json`, JSON.stringify(manifest, null, 2), { mode: 0o600 });
    await this.repository.finish(row.id, {
      ...(row.storagePath === original.storagePath ? {} : { storagePath: row.storagePath }),
      endedOn: row.lastFlushAt,
      bytes: body.bytes,
      chunks: body.chunks,
      chainHead: body.chain_head,
      manifest,
      endReason: 'recovered',
    });
    this.emit('ended', row.id, 'recovered');
    this.store(row.id);
  }

  /** A recovered recording whose files are not what the database committed: logged and audited. */
  private async reportTampered(row: RecordingRow, found: OrphanFinding): Promise<void> {
    this.log.warn(
      { recording: row.id, file: row.storagePath, why: found.why },
      'a recovered recording’s files differ from what the database committed: the committed progress is signed, ' +
        'so verification shows the difference; its files were left as they are',
    );
    await this.audit?.({
      actor: 'server',
      action: 'recording.tampered',
      target: row.id,
      outcome: 'failure',
      detail: {
        why: found.why,
        committed: { chunks: found.signed.chunks, bytes: found.signed.bytes, chain_head: found.signed.chainHead },
      },
    }).catch((err: unknown) => logFailure(this.log, err, 'recording.tampered audit entry not written'));
  }

  /**
   * Signs a checkpoint of every live recording here that committed chunks since its last one
   * (every CHECKPOINT_MS; tests call it directly). A checkpoint states committed progress only.
   */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.signCheckpoints().finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  private async signCheckpoints(): Promise<void> {
    try {
      // Signed one by one, stored a statement's worth of rows at a time: a statement per recording
      // was, with a hundred live sessions, a hundred inserts in one turn of the gateway's thread
      // every CHECKPOINT_MS (65 ms on the embedded database, every session's keystrokes behind it).
      const taken: { committer: ProgressCommitter; signed: SignedCheckpoint }[] = [];
      const rows = Math.min(CHECKPOINT_BATCH_ROWS, this.progressBatch.rowsPerStatement);
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      for (const [id, committer] of [...this.committers]) {
        // The gateway's other work gets a turn between every statement's worth of signatures.
        if (taken.length > 0 && taken.length % rows === 0) await turn();
        committer.retry();
        const progress = committer.takeCheckpoint();
        if (!progress) continue;
        const signed = signCheckpoint(
          {
            recording_id: id,
            seq: progress.seq,
            bytes: progress.bytes,
            chain_head: progress.chainHead,
            at: new Date().toISOString(),
          },
          await this.privateKey(),
        );
        taken.push({ committer, signed });
      }
      for (let at = 0; at < taken.length; at += rows) {
        if (at > 0) await turn();
        const part = taken.slice(at, at + rows);
        await this.repository.addCheckpoints(part.map((t) => t.signed)).catch((err: unknown) => {
          for (const t of part) t.committer.checkpointed = 0; // taken again on the next tick
          logFailure(this.log, err, 'recording checkpoints not stored');
        });
      }
    } catch (err) {
      logFailure(this.log, err, 'recording checkpoints not signed');
    }
  }

  /** The signing key, parsed once for as long as it does not change. */
  private async privateKey(): Promise<KeyObject> {
    const pem = await this.signingKey();
    if (this.parsedKey?.pem !== pem) this.parsedKey = { pem, key: createPrivateKey(pem) };
    return this.parsedKey.key;
  }

  /** Writes rows that waited for the database (it told us it is back). */
  useHealth(health: DatabaseHealth): void {
    this.health = health;
    health.on('up', () => void this.saveHeld());
  }

  /** Recordings ended whose row still waits for the database. */
  get unsavedCount(): number {
    return this.unsaved.size;
  }

  /** Runs a row write; when the database is away it is held (one per recording) and run on its return. */
  private async saveOrHold(id: string, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.health?.failed(error);
      this.unsaved.set(id, write);
      this.log.warn({ recording: id }, 'recording ended while the database is away: its row is written on its return');
    }
  }

  private async saveHeld(): Promise<void> {
    for (const [id, write] of [...this.unsaved]) {
      try {
        await write();
        this.unsaved.delete(id);
      } catch (error) {
        if (this.health?.failed(error)) return; // away again: the next return retries the rest
        this.unsaved.delete(id);
        this.log.error({ err: error, recording: id }, 'a held recording row could not be written');
      }
    }
  }

  /**
   * This instance was declared gone (it was silent too long) and another took its live recordings
   * over: the sessions end, and their files are put back as the recovery signed them.
   */
  takenOverElsewhere(): void {
    for (const live of this.live.values()) {
      this.takenOver.add(live.id);
      live.terminate?.('the server: this instance lost contact with the database for too long');
    }
  }

  /**
   * A recording recovered by another instance while it was still live here: what this instance
   * wrote after the recovery is cut, so the files match the recovered manifest again.
   */
  private async giveBack(live: LiveRecording): Promise<SignedManifest | undefined> {
    const row = await this.repository.find(live.id);
    if (!row?.endedOn || !row.manifest) {
      this.log.error({ recording: live.id }, 'a recording taken over elsewhere is not closed there yet; left as it is');
      return undefined;
    }
    const chain = (await fs.readFile(`${live.row.storagePath}.chain`, 'utf8')).split('\n').slice(0, row.chunks);
    await fs.writeFile(`${live.row.storagePath}.chain`, chain.length > 0 ? `${chain.join('\n')}\n` : '');
    await fs.truncate(live.row.storagePath, row.bytes);
    const manifest = row.manifest as SignedManifest;
    await fs.writeFile(`${live.row.storagePath}.manifest.json`, JSON.stringify(manifest, null, 2), { mode: 0o600 });
    this.log.warn({ recording: live.id }, 'a recording recovered by another instance: output after that was cut');
    this.emit('ended', live.id, row.endReason ?? 'recovered');
    this.store(live.id);
    return manifest;
  }

  /** Ids of the sessions live on this instance. */
  liveIds(): string[] {
    return [...this.live.keys()];
  }

  /** Stops the heartbeat (server shutdown; live sessions are finished by their gateway). */
  close(): void {
    clearInterval(this.heartbeat);
    clearInterval(this.checkpoints);
    this.objects?.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
