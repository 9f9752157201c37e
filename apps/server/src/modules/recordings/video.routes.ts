import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { uploadRecordingVideo } from '@gatehouse/contracts';
import type { Handlers } from '../../http/bind-routes.js';
import { HttpError } from '../../http/errors.js';
import { sendFile } from '../../http/send-file.js';
import { MAX_VIDEO_PIECE_BYTES, playbackOf, videoPathOf } from '../../recordings/video.service.js';
import type { Services } from '../../services.js';
import { objectStream } from './recordings.routes.js';

/**
 * Lets the agents' video upload through: raw bytes (application/octet-stream, up to 8 MiB on that
 * route only; every other route keeps the 1 MiB limit) and no audit entry per piece (one a second
 * per session would drown the trail; the session itself is recorded). Call before binding routes.
 */
export function installVideoUpload(app: FastifyInstance): void {
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.addHook('onRoute', (route) => {
    if (route.config?.routeId !== uploadRecordingVideo.id) return;
    route.bodyLimit = MAX_VIDEO_PIECE_BYTES;
    route.config.auditable = false;
  });
}

/** Handlers of RDP video: upload by the agent, availability and ranged playback. */
export function videoHandlers(
  s: Services,
): Pick<Handlers, 'uploadRecordingVideo' | 'getRecordingVideo' | 'playbackAvailable'> {
  const videos = s.videos;
  return {
    uploadRecordingVideo: async ({ params, query, body, request }) => {
      const agent = request.agent;
      if (!agent) throw new HttpError(401, 'Only an enrolled agent may upload video.');
      const data: unknown = body ?? Buffer.alloc(0);
      if (!Buffer.isBuffer(data)) throw new HttpError(415, 'Send the video as application/octet-stream.');
      const bytes = await videos.append({
        agentId: agent.id,
        id: params.id,
        offset: query.offset,
        data,
        final: query.final ?? false,
      });
      return { bytes };
    },
    playbackAvailable: async ({ principal, params }) => playbackOf(await s.sessions.forWatcher(principal, params.id)),
    getRecordingVideo: async ({ principal, params, query, request, reply }) => {
      const row = await s.sessions.forWatcher(principal, params.id);
      if (!playbackOf(row).available) throw new HttpError(404, 'This session has no video.');
      const objects = s.recordingObjects;
      const key = row.objectKey;
      // In object storage (ADR 0008): ranges from the final object, or across the pieces while it grows.
      const inObjects = objects !== undefined && key !== null && !fs.existsSync(videoPathOf(row.storagePath));
      return sendFile(request, reply, {
        path: videoPathOf(row.storagePath),
        open: inObjects ? (start, end) => objectStream(() => objects.readVideo(key, start, end)) : undefined,
        // The committed length: bytes past it belong to a piece still being written.
        size: row.videoBytes,
        type: 'video/mp4',
        downloadName: query.download ? `session-${row.id}.mp4` : undefined,
      });
    },
  };
}
