import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream';
import { AGENT_CREDENTIAL_HEADER, AGENT_ID_HEADER, TOKEN_HEADER, TOKEN_HEADER_ALT } from '@gatehouse/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketDuplex } from '@gatehouse/tunnel';
import { WebSocketServer } from 'ws';
import type { Services } from '../services.js';

/** Where the tunnel client dials: one WebSocket per relayed TCP connection. */
export const TUNNEL_CONNECT_PATH = '/api/tunnel/connect';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ statusCode: status, message });
  const text =
    { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 502: 'Bad Gateway' }[status] ??
    'Error';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Relays rdp, generic and agent tunnels: the client (a user with a token, or for agent tunnels an
 * agent with its credential) is checked against the definition before the upgrade; the bytes go
 * through the host's agent to the whitelisted port, and the session is recorded (byte counts and
 * times, never the bytes themselves; for rdp on a host with recording_enabled, the agent's video of
 * its desktop).
 */
export function attachTunnelEndpoint(server: Server, s: Services, log: FastifyBaseLogger): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://gatehouse');
    if (url.pathname !== TUNNEL_CONNECT_PATH) return;
    void (async () => {
      const definitionId = url.searchParams.get('definition') ?? '';
      if (!UUID.test(definitionId)) return refuse(socket, 400, 'Name the tunnel definition by id: ?definition=<id>.');
      const definition = await s.repositories.tunnels.find(definitionId);
      if (!definition || definition.type === 'ssh')
        return refuse(socket, 404, 'There is no rdp, generic or agent tunnel definition with that id.');
      let who: { userId: string | null; email: string } | undefined;
      const source = request.socket.remoteAddress ?? null;
      if (definition.type === 'agent') {
        const agent = await s.policy.agentFromCredential(
          request.headers[AGENT_ID_HEADER],
          request.headers[AGENT_CREDENTIAL_HEADER],
        );
        if (!agent) return refuse(socket, 401, 'Agent tunnels are opened by agents: send the agent’s identity.');
        if (!(await s.policy.admitAgent(agent, definition, { source })))
          return refuse(socket, 403, `${agent.hostname} is not listed on this agent tunnel.`);
        who = { userId: null, email: `agent:${agent.hostname}` };
      } else {
        const raw = request.headers[TOKEN_HEADER] ?? request.headers[TOKEN_HEADER_ALT];
        const principal = typeof raw === 'string' ? await s.auth.authenticate(raw) : undefined;
        if (!principal) return refuse(socket, 401, 'Sign in first: send a valid Authentication-Token.');
        const use = definition.type === 'rdp' ? 'rdp' : 'generic';
        if (!(await s.policy.admit(principal, definition, use, { source })))
          return refuse(socket, 403, `You are not admitted to the tunnel ${definition.name}.`);
        who = { userId: principal.userId, email: principal.email };
      }
      let target;
      try {
        target = await s.hub.openStream(definition.agentId, definition.port);
      } catch (error) {
        return refuse(socket, 502, (error as Error).message);
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        const client = new WebSocketDuplex(ws);
        void s.recordings
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
              void s.recordings.finish(recording, 'terminated', by);
            };
            let done = 0;
            const finish = () => {
              done += 1;
              if (done < 2) return;
              clearInterval(meter);
              if (toHost + toClient > 0)
                recording.recorder.output(Buffer.from(`${toHost} bytes to the host, ${toClient} bytes back\r\n`));
              void s.recordings.finish(recording, 'closed');
            };
            pipeline(client, target, () => finish());
            pipeline(target, client, () => finish());
            // RDP sessions on hosts that record video: the agent captures the desktop while the stream lives.
            if (definition.type === 'rdp') {
              s.hub
                .captureVideo(definition.agentId, target, recording.id)
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
      });
    })().catch((error: unknown) => {
      log.error({ err: error }, 'tunnel upgrade failed');
      refuse(socket, 502, 'The tunnel could not be opened.');
    });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    wss.close();
  };
}
