import { EventEmitter } from 'node:events';
import type { CaptureStatus } from '@gatehouse/contracts';
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { agents, recordings } from '../db/schema.js';
import type { AuditInput } from '../modules/audit/audit.repository.js';
import { configOf } from '../modules/agents/agents.service.js';

/** Longest note stored on a recording or an agent (characters, after cleaning). */
export const CAPTURE_NOTE_MAX = 500;
/** An old agent (no capture status) is taken as not filming after this long (issue 18). */
export const CAPTURE_STATUS_TIMEOUT_MS = 30_000;
/** How often a tunnel re-reads its recording's capture state (the agent may report to another instance). */
const POLL_MS = 5_000;

/** The audit action of an rdp session that was not filmed, allowed or refused. */
export const NOT_FILMED_ACTION = 'session.not-filmed';

/** Why a session is not filmed, when the host's config has recording off. */
export const REASON_RECORDING_OFF = 'recording is off for this host';
/** Why, when the agent said nothing of its capture in time (an agent older than the server). */
export const REASON_NO_STATUS = `the agent sent no capture status within ${CAPTURE_STATUS_TIMEOUT_MS / 1000} s (an agent older than this server?)`;

/** Control characters, line breaks (CR, LF, Unicode's separators) and bidirectional overrides. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/**
 * An agent's words made safe to store and show: control characters and line breaks become
 * spaces, and the text is cut to `max` characters (code points). Markup stays text: the console
 * and the API render it as text, never as HTML.
 */
export function cleanNote(text: string | null | undefined, max = CAPTURE_NOTE_MAX): string | null {
  if (text === null || text === undefined) return null;
  const cleaned = text.replace(UNSAFE, ' ').replace(/ {2,}/g, ' ').trim();
  if (!cleaned) return null;
  const points = Array.from(cleaned);
  return points.length <= max ? cleaned : `${points.slice(0, max - 1).join('')}…`;
}

/** What a report answers: applied, or refused (not this agent's rdp recording). */
export type ReportOutcome = 'applied' | 'kept' | 'refused';

/** The rdp definition a tunnel was opened with, as far as the capture policy goes. */
export interface GovernedDefinition {
  id: string;
  name: string;
  hostname: string;
  agentId: string;
  unfilmedRdp: string;
}

/**
 * Capture status of RDP sessions through tunnels (issue 18 items 2 and 4): stores what agents
 * report on their own recordings, tells the tunnels carrying them, and applies an rdp
 * definition's policy for sessions that cannot be filmed.
 *
 * Events: 'status' (recordingId, state, note) for the tunnels on this instance.
 */
export class CaptureStatuses extends EventEmitter {
  /** How long a tunnel waits for a first status after asking for video (tests shorten it). */
  timeoutMs = CAPTURE_STATUS_TIMEOUT_MS;
  /** How often a tunnel re-reads its recording's state (tests shorten it). */
  pollMs = POLL_MS;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly audit: (entry: AuditInput) => Promise<void>,
  ) {
    super();
    this.setMaxListeners(0);
  }

  /**
   * An agent's report on one capture. Applied only to an rdp recording of that same agent: an
   * agent cannot mark another host's sessions (nor an ssh one). A recording already marked
   * not-filmed stays so (the gap is part of the evidence); the host's last error is still noted.
   */
  async report(agentId: string, status: CaptureStatus): Promise<ReportOutcome> {
    const [row] = await this.db
      .select({ agentId: recordings.agentId, type: recordings.type, videoState: recordings.videoState })
      .from(recordings)
      .where(eq(recordings.id, status.recording_id))
      .limit(1);
    if (!row || row.agentId !== agentId || row.type !== 'rdp') {
      this.log.warn(
        { agent: agentId, recording: status.recording_id },
        'capture status for a recording that is not this agent’s rdp session; ignored',
      );
      return 'refused';
    }
    const failed = status.state === 'failed' || status.state === 'unsupported';
    const note = failed
      ? (cleanNote(status.detail) ??
        (status.state === 'failed' ? 'the capture failed' : 'this host cannot film RDP sessions'))
      : status.display
        ? cleanNote(`display ${status.display}`)
        : cleanNote(status.detail);
    const updated = await this.db
      .update(recordings)
      .set({ videoState: status.state, videoNote: note })
      .where(
        and(
          eq(recordings.id, status.recording_id),
          eq(recordings.agentId, agentId),
          or(isNull(recordings.videoState), ne(recordings.videoState, 'not-filmed')),
        ),
      )
      .returning({ id: recordings.id });
    if (failed) await this.noteHostError(agentId, note ?? status.state);
    this.emit('status', status.recording_id, status.state, note);
    return updated.length > 0 ? 'applied' : 'kept';
  }

  /** Notes a host's last capture failure, for the Agents screen. */
  async noteHostError(agentId: string, error: string): Promise<void> {
    await this.db
      .update(agents)
      .set({ captureError: cleanNote(error), captureErrorAt: sql`now()` })
      .where(eq(agents.id, agentId));
  }

  /** Marks a recording not filmed, with why. */
  async markNotFilmed(recordingId: string, reason: string): Promise<void> {
    await this.db
      .update(recordings)
      .set({ videoState: 'not-filmed', videoNote: cleanNote(reason) })
      .where(eq(recordings.id, recordingId));
  }

  /** Whether the host's config films RDP sessions at all. */
  async hostRecords(agentId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ os: agents.os, config: agents.config })
      .from(agents)
      .where(eq(agents.id, agentId))
      .limit(1);
    return row ? configOf(row).recording_enabled : false;
  }

  /** The audit entry of an unfilmed rdp session: refused (denied) or allowed (success). */
  async auditNotFilmed(entry: {
    definition: GovernedDefinition;
    target: string;
    reason: string;
    refused: boolean;
    actorId: string | null;
    actor: string;
    source: string | null;
  }): Promise<void> {
    await this.audit({
      actorId: entry.actorId,
      actor: entry.actor,
      action: NOT_FILMED_ACTION,
      target: entry.target,
      outcome: entry.refused ? 'denied' : 'success',
      source: entry.source,
      detail: {
        definition: entry.definition.id,
        tunnel: entry.definition.name,
        host: entry.definition.hostname,
        policy: entry.refused ? 'refuse' : 'allow',
        reason: cleanNote(entry.reason),
      },
    });
  }

  /**
   * Watches one rdp tunnel's capture after the agent was asked for video: the first time it turns
   * out unfilmed (failed or unsupported, here or reported to another instance, or no status at all
   * within timeoutMs), `unfilmed` is called once with why. Answers how to stop watching.
   */
  watch(recordingId: string, agentId: string, unfilmed: (reason: string) => void): () => void {
    let done = false;
    let heard = false;
    const stop = () => {
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      this.off('status', onStatus);
    };
    const fire = (reason: string) => {
      if (done) return;
      stop();
      unfilmed(reason);
    };
    const onStatus = (id: string, state: string, note: string | null) => {
      if (id !== recordingId) return;
      heard = true;
      if (state === 'failed' || state === 'unsupported') fire(note ?? state);
    };
    this.on('status', onStatus);
    const read = async () => {
      const [row] = await this.db
        .select({ state: recordings.videoState, note: recordings.videoNote })
        .from(recordings)
        .where(eq(recordings.id, recordingId))
        .limit(1);
      return row;
    };
    const poll = setInterval(() => {
      read()
        .then((row) => {
          if (row?.state === 'failed' || row?.state === 'unsupported') fire(row.note ?? row.state);
          else if (row?.state) heard = true;
        })
        .catch((error: unknown) => this.log.warn({ err: error, recording: recordingId }, 'capture state not read'));
    }, this.pollMs);
    poll.unref();
    const timer = setTimeout(() => {
      read()
        .then(async (row) => {
          if (done) return;
          if (row?.state === 'failed' || row?.state === 'unsupported') return fire(row.note ?? row.state);
          if (heard || row?.state) return;
          await this.noteHostError(agentId, REASON_NO_STATUS);
          fire(REASON_NO_STATUS);
        })
        .catch((error: unknown) => this.log.warn({ err: error, recording: recordingId }, 'capture state not read'));
    }, this.timeoutMs);
    timer.unref();
    return stop;
  }
}
