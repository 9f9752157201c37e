import { execFile } from 'node:child_process';
import { type KeyObject, createPrivateKey } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CastEvent } from '@gatehouse/contracts';
import { recordings } from '../db/schema.js';
import { chunksOf, writeRecording } from '../recordings/import.js';
import { videoPathOf } from '../recordings/video.service.js';
import type { Services } from '../services.js';
import { type PlannedSession, planSessions } from './demo-plan.js';
import { seeded } from './demo-rng.js';
import { followEvents, shellEvents, tunnelEvents } from './demo-shell.js';

/** How many recordings the demo writes unless told otherwise. */
export const DEFAULT_DEMO_RECORDINGS = 10_000;
/**
 * No process writes the demo's live sessions, so recovery (at every start with the embedded
 * database) would finalise them at once. Their heartbeat is set this far ahead instead, as if an
 * instance held them: they stay live for a month, then recovery closes them like any orphan.
 */
export const DEMO_LIVE_LEASE_MS = 30 * 24 * 3600_000;
const BATCH = 250;

/** Options of the demo recordings. */
export interface DemoRecordingOptions {
  count: number;
  dataDir: string;
  /** Called after each batch. */
  progress?: (done: number, total: number) => void;
}

type Row = typeof recordings.$inferInsert;

/** A small fragmented MP4 (what the agent uploads) made by ffmpeg once; undefined without ffmpeg. */
async function demoVideo(dir: string): Promise<{ file: string; bytes: number } | undefined> {
  const file = path.join(dir, 'demo-rdp-template.mp4');
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=5', '-t', '10', '-c:v', 'libx264'];
  args.push('-pix_fmt', 'yuv420p', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', file);
  try {
    await promisify(execFile)('ffmpeg', args, { timeout: 60_000 });
    return { file, bytes: (await fs.stat(file)).size };
  } catch {
    return undefined;
  }
}

/** The events of one planned session. */
function eventsOf(seed: number, planned: PlannedSession, hostname: string): CastEvent[] {
  const rng = seeded(seed);
  const { profile, durationSeconds, startedOn } = planned;
  if (planned.kind === 'tunnel') return tunnelEvents(rng, profile.login, durationSeconds, planned.live);
  // Live, or ended by something else than the user: no `exit` at the end.
  const open = planned.live || planned.endReason !== 'client-closed';
  const session = { login: profile.login, hostname, startedOn, durationSeconds, open };
  return planned.kind === 'follow' ? followEvents(rng, session) : shellEvents(rng, session);
}

/** What every recording of one demo run shares. */
interface WriteContext {
  root: string;
  now: number;
  signingKey: KeyObject;
  template: { file: string; bytes: number } | undefined;
  definitions: Map<string, { id: string; host: { id: string; hostname: string } }>;
  userIds: Map<string, string>;
  /** Month folders, created once each. */
  madeDirs: Map<string, Promise<unknown>>;
}

/** Writes one planned session's files (and its video when RDP) and answers its row. */
async function writeOne(ctx: WriteContext, planned: PlannedSession, seed: number): Promise<Row> {
  const definition = ctx.definitions.get(planned.profile.definition);
  const hostname = definition?.host.hostname ?? planned.profile.login.split(':')[0] ?? 'unknown';
  const started = planned.startedOn;
  const dir = path.join(ctx.root, String(started.getUTCFullYear()), String(started.getUTCMonth() + 1).padStart(2, '0'));
  if (!ctx.madeDirs.has(dir)) ctx.madeDirs.set(dir, fs.mkdir(dir, { recursive: true }));
  await ctx.madeDirs.get(dir);
  const id = crypto.randomUUID();
  const file = path.join(dir, `${id}.cast`);
  const events = eventsOf(seed, planned, hostname);
  const lastEvent = events.at(-1)?.[0] ?? 0;
  const endedOn = planned.live
    ? undefined
    : new Date(started.getTime() + Math.max(planned.durationSeconds, lastEvent + 0.2) * 1000);
  const header = { width: planned.width, height: planned.height, startedOn: started, term: planned.term };
  const written = await writeRecording(
    file,
    id,
    { ...header, title: `${planned.userEmail} on ${hostname}` },
    chunksOf(events),
    ctx.signingKey,
    endedOn ? { endedOn, reason: planned.endReason ?? 'client-closed' } : undefined,
  );
  const { template } = ctx;
  const hasVideo = planned.profile.type === 'rdp' && template !== undefined;
  if (hasVideo) {
    // One ffmpeg run for all, hard-linked (copied across file systems). A live capture may still
    // grow, so a live one gets its own copy: an upload must never change the others.
    const video = videoPathOf(file);
    if (planned.live) await fs.copyFile(template.file, video);
    else await fs.link(template.file, video).catch(() => fs.copyFile(template.file, video));
  }
  return {
    id,
    type: planned.profile.type,
    agentId: definition?.host.id ?? null,
    hostname,
    userId: ctx.userIds.get(planned.userEmail) || null,
    userEmail: planned.userEmail,
    definitionId: definition?.id ?? null,
    definitionName: planned.profile.definition,
    startedOn: started,
    endedOn: endedOn ?? null,
    lastFlushAt: endedOn ?? new Date(ctx.now + DEMO_LIVE_LEASE_MS),
    hasVideo,
    videoBytes: hasVideo ? template.bytes : 0,
    videoFinal: hasVideo && !planned.live,
    videoAt: hasVideo ? (endedOn ?? new Date(ctx.now)) : null,
    width: planned.width,
    height: planned.height,
    storagePath: file,
    bytes: written.bytes,
    chunks: written.chunks,
    chainHead: written.chainHead,
    manifest: written.manifest ?? null,
    endReason: endedOn ? planned.endReason : null,
    terminatedBy: planned.terminatedBy,
  };
}

/**
 * Writes `count` recordings through the real recording storage (asciicast files with their hash
 * chain and signed manifests, exactly as the gateway leaves them; RDP ones with a video) and
 * inserts their rows in batches. Skipped when demo recordings exist already. Returns lines to print.
 */
export async function seedRecordings(s: Services, options: DemoRecordingOptions): Promise<string[]> {
  if (options.count <= 0) return ['Demo recordings: none asked for.'];
  const [existing] = await s.database.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM recordings WHERE user_email LIKE '%@demo.gatehouse.test'",
  );
  if ((existing?.n ?? 0) > 0) return [`Demo recordings were already there: ${existing?.n}.`];
  const began = performance.now();
  const root = path.join(options.dataDir, 'recordings');
  await fs.mkdir(root, { recursive: true });
  const video = demoVideo(root);
  // Parsed once: 10,000 manifests would otherwise parse the PEM 10,000 times.
  const signingKey = createPrivateKey((await s.gatewayKeys.keys()).signingKey);
  const all = await s.tunnels.listAll();
  const definitions = new Map([...all.ssh, ...all.rdp, ...all.generic, ...all.agent].map((d) => [d.name, d]));
  const userIds = new Map<string, string>();
  const now = Date.now();
  const plan = planSessions(seeded(now % 2 ** 31), options.count, now);
  for (const email of new Set(plan.map((p) => p.userEmail)))
    userIds.set(email, (await s.repositories.users.findByEmail(email))?.id ?? '');
  const template = await video;
  const ctx: WriteContext = { root, now, signingKey, template, definitions, userIds, madeDirs: new Map() };
  let withVideo = 0;
  for (let from = 0; from < plan.length; from += BATCH) {
    const rows = await Promise.all(
      plan.slice(from, from + BATCH).map((planned, offset) => writeOne(ctx, planned, now + from + offset)),
    );
    await s.database.db.insert(recordings).values(rows);
    withVideo += rows.filter((r) => r.hasVideo).length;
    options.progress?.(Math.min(plan.length, from + BATCH), plan.length);
  }
  if (template) await fs.rm(template.file, { force: true });
  const live = plan.filter((p) => p.live);
  const longRunning = live.filter((p) => p.durationSeconds >= 86_400).length;
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  await s.database.exec('ANALYZE recordings');
  return [
    `Demo recordings: ${plan.length} over the last 90 days (${live.length} live, ${longRunning} of them for over 24 hours; ` +
      `${withVideo} RDP with video${template ? '' : ': ffmpeg was not found, so none has a video'}), written in ${seconds} s.`,
  ];
}
