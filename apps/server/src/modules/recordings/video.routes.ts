import type { Handlers } from '../../http/bind-routes.js';
import { HttpError } from '../../http/errors.js';
import type { Services } from '../../services.js';

/** Handlers of RDP video: upload by the agent, availability and ranged playback. */
export function videoHandlers(
  _s: Services,
): Pick<Handlers, 'uploadRecordingVideo' | 'getRecordingVideo' | 'playbackAvailable'> {
  const pending = (): never => {
    throw new HttpError(404, 'No video for that session.');
  };
  return {
    uploadRecordingVideo: async () => pending(),
    getRecordingVideo: async () => pending(),
    playbackAvailable: async () => pending(),
  };
}
