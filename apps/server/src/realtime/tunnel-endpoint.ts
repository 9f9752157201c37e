import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream';
import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER, TOKEN_HEADER, TOKEN_HEADER_ALT } from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketDuplex, noDelay } from '@gatehouse/tunnel';
import { WebSocketServer } from 'ws';
import type { LiveRecording } from '../recordings/recordings.service.js';
import { REASON_RECORDING_OFF } from '../recordings/capture-status.js';
import type { Services } from '../services.js';
import { type LiveHolder, REVOKED_ACTION } from './live-rights.js';
import { detach } from '../lib/detach.js';
import { markAuthenticated } from '../http/connection-limits.js';

/** Where the tunnel client dials: one WebSocket per relayed TCP connection. */
export const TUNNEL_CONNECT_PATH = '/api/tunnel/connect';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ statusCode: status, message });
  const text =
    {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
    }[status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A WebSocket close reason: at most 123 bytes of UTF-8, cut at a character. */
function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

/** What a tunnel opened while the instance drains is answered (503). */
export const TUNNEL_DRAINING =
  'This Gatehouse instance is shutting down and opens no new tunnels: connect again in a few seconds.';

/** The tunnel endpoint attached to a server, and how the server's shutdown drains it. */
export interface TunnelEndpoint {
  /** Tunnels open now. */
  readonly open: number;
  /** Draining: new tunnels are refused with 503 (TUNNEL_DRAINING); open ones go on. */
  stopTaking(): void;
  /** Ends every open tunnel (WebSocket close 1001 with `reason`) and waits for every recording to be finished. */
  endAll(reason: string): Promise<void>;
  /** Stops handling upgrades. */
  detach(): void;
}

/**
 * Relays rdp, generic and agent tunnels: the client (a user with a token, or for agent tunnels an
 * agent with its credential) is checked against the definition before the upgrade; the bytes go
 * through the host's agent to the whitelisted port, and the session is recorded (byte counts and
 * times, never the bytes themselves; for rdp on a host with recording_enabled, the agent's video of
 * its desktop).
 */
export function attachTunnelEndpoint(server: Server, s: Services, log: FastifyBaseLogger): TunnelEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  let draining = false;
  /** Open tunnels, each with how to end it recorded. */
  const open = new Set<(reason: string) => Promise<void>>();
  /** Recordings being finished (awaited before the server closes the database). */
  const finishing = new Set<Promise<unknown>>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://gatehouse');
    if (url.pathname !== TUNNEL_CONNECT_PATH) return;
    noDelay(socket); // a tunnel carries keystrokes: small writes leave at once
    if (draining) return refuse(socket, 503, TUNNEL_DRAINING);
    void (async () => {
      const definitionId = url.searchParams.get('definition') ?? '';
      if (!UUID.test(definitionId)) return refuse(socket, 400, 'Name the tunnel definition by id: ?definition=<id>.');
      const definition = await s.repositories.tunnels.find(definitionId);
      if (!definition || definition.type === 'ssh')
        return refuse(socket, 404, 'There is no rdp, generic or agent tunnel definition with that id.');
      let who: { userId: string | null; email: string } | undefined;
      const source = request.socket.remoteAddress ?? null;
      // Live rights: asked again whenever rights change; answers why the tunnel must close, if it must.
      let withdrawn: () => Promise<string | undefined>;
      const holder: LiveHolder = { recheck: () => Promise.resolve() };
      if (definition.type === 'agent') {
        const agent = await s.policy.agentFromCredential(
          request.headers[AGENT_ID_HEADER],
          request.headers[AGENT_CREDENTIAL_HEADER],
        );
        if (!agent) return refuse(socket, 401, 'Agent tunnels are opened by agents: send the agent’s identity.');
        if (!(await s.policy.admitAgent(agent, definition, { source })))
          return refuse(socket, 403, `${agent.hostname} is not listed on this agent tunnel.`);
        who = { userId: null, email: `agent:${agent.hostname}` };
        const [id, credential] = [request.headers[AGENT_ID_HEADER], request.headers[AGENT_CREDENTIAL_HEADER]];
        withdrawn = async () => {
          const still = await s.policy.agentFromCredential(id, credential);
          if (!still) return 'This agent was deleted or enrolled again: the tunnel is closed.';
          const current = await s.repositories.tunnels.find(definition.id);
          if (!current || current.agentId !== definition.agentId || current.port !== definition.port)
            return `The tunnel ${definition.name} was deleted or changed: open it again.`;
          if (!(await s.policy.admitAgent(still, current, { source })))
            return `${agent.hostname} is no longer listed on the tunnel ${definition.name}.`;
          return undefined;
        };
      } else {
        const raw = request.headers[TOKEN_HEADER] ?? request.headers[TOKEN_HEADER_ALT];
        if (typeof raw !== 'string') return refuse(socket, 401, 'Sign in first: send a valid Authentication-Token.');
        // Session tokens only: a one-shot authorization answers one HTTP call and opens no tunnel.
        const signedIn = await s.auth.authenticateConnection(raw);
        if ('refused' in signedIn) return refuse(socket, 401, signedIn.refused);
        const { principal } = signedIn;
        Object.assign(holder, { tokenHash: principal.tokenHash, expiresAt: principal.expiresAt.getTime() });
        const use = definition.type === 'rdp' ? 'rdp' : 'generic';
        if (!(await s.policy.admit(principal, definition, use, { source })))
          return refuse(socket, 403, `You are not admitted to the tunnel ${definition.name}.`);
        who = { userId: principal.userId, email: principal.email };
        withdrawn = async () => {
          const again = await s.auth.authenticateConnection(raw);
          if ('refused' in again) return again.refused;
          holder.expiresAt = again.principal.expiresAt.getTime();
          const current = await s.repositories.tunnels.find(definition.id);
          if (!current || current.agentId !== definition.agentId || current.port !== definition.port)
            return `The tunnel ${definition.name} was deleted or changed: open it again.`;
          if (!(await s.policy.admit(again.principal, current, use, { source })))
            return `You are no longer admitted to the tunnel ${definition.name}.`;
          return undefined;
        };
      }
      let target;
      try {
        target = await s.hub.openStream(definition.agentId, definition.port);
      } catch (error) {
        return refuse(socket, 502, (error as Error).message);
      }
      // RDP is filmed or refused (issue 18): on a host whose config films nothing, a definition that
      // refuses unfilmed sessions refuses here, before a byte reaches the host.
      const governed = {
        id: definition.id,
        name: definition.name,
        hostname: definition.hostname,
        agentId: definition.agentId,
        unfilmedRdp: definition.unfilmedRdp,
      };
      const refusesUnfilmed = definition.unfilmedRdp !== 'allow';
      let recordingOff = false;
      if (definition.type === 'rdp') {
        try {
          recordingOff = !(await s.captureStatuses.hostRecords(definition.agentId));
        } catch (error) {
          target.destroy();
          throw error;
        }
        if (recordingOff && refusesUnfilmed) {
          target.destroy();
          await s.captureStatuses.auditNotFilmed({
            definition: governed,
            target: definition.id,
            reason: REASON_RECORDING_OFF,
            refused: true,
            actorId: who.userId,
            actor: who.email,
            source,
          });
          return refuse(
            socket,
            403,
            `Not filmed: ${REASON_RECORDING_OFF}, and the tunnel ${definition.name} refuses RDP sessions that are not filmed.`,
          );
        }
      }
      markAuthenticated(socket); // no longer counted against its address's cap of connections
      wss.handleUpgrade(request, socket, head, (ws) => {
        const client = new WebSocketDuplex(ws);
        // A socket closed under the pipes (revoked, terminated) errors after they finished: expected.
        client.on('error', (error: Error) => log.debug({ err: error }, 'tunnel client closed'));
        let live: LiveRecording | undefined;
        let revoked = false;
        // A recording is finished once, whoever ends the tunnel first (closed, revoked, terminated, shutdown).
        let finished: Promise<unknown> | undefined;
        const finishOnce = (recording: LiveRecording, reason: string, by?: string) => {
          if (!finished) {
            const done = s.recordings.finish(recording, reason, by).finally(() => finishing.delete(done));
            finishing.add(done);
            finished = done;
          }
          return finished;
        };
        holder.recheck = async () => {
          if (revoked || ws.readyState !== ws.OPEN) return;
          const why = await withdrawn();
          if (!why || revoked) return;
          revoked = true;
          ws.close(4003, closeReason(why));
          target.destroy();
          if (live) await finishOnce(live, 'revoked');
          await s.repositories.audit.append({
            actorId: who.userId,
            actor: who.email,
            action: REVOKED_ACTION,
            target: live?.id ?? definition.id,
            outcome: 'denied',
            source,
            detail: { connection: 'tunnel', definition: definition.id, why },
          });
        };
        // An rdp session that cannot be filmed: marked not filmed, audited, and closed when the
        // definition refuses such sessions (the client prints the reason).
        const notFilmed = async (recording: LiveRecording, reason: string) => {
          let refused = false;
          let ending: Promise<unknown> | undefined;
          if (refusesUnfilmed && !revoked && ws.readyState === ws.OPEN) {
            revoked = true;
            refused = true;
            ws.close(4003, closeReason(`Refused, not filmed: ${reason}`));
            client.destroy();
            target.destroy();
            ending = finishOnce(recording, 'not-filmed');
          }
          await s.captureStatuses.markNotFilmed(recording.id, reason);
          await ending;
          await s.captureStatuses.auditNotFilmed({
            definition: governed,
            target: recording.id,
            reason,
            refused,
            actorId: who.userId,
            actor: who.email,
            source,
          });
        };
        const untrack = s.liveRights.track(holder);
        ws.once('close', untrack);
        const started = s.recordings
          .start({
            type: definition.type as 'rdp',
            agentId: definition.agentId,
            hostname: definition.hostname,
            userId: who.userId,
            userEmail: who.email,
            definitionId: definition.id,
            definitionName: definition.name,
            width: 80,
            height: 24,
          })
          .then((recording) => {
            live = recording;
            let toHost = 0;
            let toClient = 0;
            const meter = setInterval(() => {
              if (toHost + toClient === 0) return;
              recording.recorder.output(
                Buffer.from(`${toHost} bytes to ${definition.hostname}:${definition.port}, ${toClient} bytes back\r\n`),
              );
              toHost = 0;
              toClient = 0;
            }, 1000);
            client.on('data', (d: Buffer) => (toHost += d.length));
            target.on('data', (d: Buffer) => (toClient += d.length));
            recording.terminate = (by) => {
              client.destroy();
              target.destroy();
              detach(log, 'finishing a terminated tunnel recording', finishOnce(recording, 'terminated', by));
            };
            let done = 0;
            const finish = () => {
              done += 1;
              if (done < 2) return;
              clearInterval(meter);
              if (toHost + toClient > 0)
                recording.recorder.output(Buffer.from(`${toHost} bytes to the host, ${toClient} bytes back\r\n`));
              detach(log, 'finishing a tunnel recording', finishOnce(recording, 'closed'));
            };
            pipeline(client, target, () => finish());
            pipeline(target, client, () => finish());
            // RDP sessions on hosts that record video: the agent captures the desktop while the stream
            // lives and reports how it stands; a session it cannot film is refused or marked (issue 18).
            if (definition.type === 'rdp') {
              const unfilmed = (reason: string) =>
                detach(log, 'applying the unfilmed-RDP policy', notFilmed(recording, reason));
              if (recordingOff) unfilmed(REASON_RECORDING_OFF);
              else
                s.hub
                  .captureVideo(definition.agentId, target, recording.id)
                  .then((asked) => {
                    if (asked) {
                      const stop = s.captureStatuses.watch(recording.id, definition.agentId, unfilmed);
                      ws.once('close', stop);
                      if (ws.readyState !== ws.OPEN) stop();
                    } else if (!target.destroyed) unfilmed(REASON_RECORDING_OFF);
                  })
                  .catch((error: unknown) =>
                    log.warn({ err: error, recording: recording.id }, 'video capture not asked'),
                  );
            }
          })
          .catch((error: unknown) => {
            log.error({ err: error }, 'tunnel recording failed to start');
            ws.close(1011, 'recording failed');
            target.destroy();
          });
        // The server's shutdown: the tunnel closes (1001, going away) and its recording is finished.
        const end = async (reason: string) => {
          ws.close(1001, closeReason(reason));
          client.destroy();
          target.destroy();
          await started;
          if (live) await finishOnce(live, 'server-stopped');
        };
        open.add(end);
        ws.once('close', () => open.delete(end));
      });
    })().catch((error: unknown) => {
      log.error({ err: error }, 'tunnel upgrade failed');
      refuse(socket, 502, 'The tunnel could not be opened.');
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    get open() {
      return open.size;
    },
    stopTaking() {
      draining = true;
    },
    async endAll(reason) {
      draining = true;
      // A recording that cannot be finished now (the database away) is left to recovery; the rest go on.
      await Promise.allSettled([...open].map((end) => end(reason)));
      await Promise.allSettled([...finishing]);
    },
    detach() {
      server.off('upgrade', onUpgrade);
      wss.close();
    },
  };
}
