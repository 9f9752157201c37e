import { useMutation } from '@tanstack/react-query';
import { apiCall, buildUrl } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** The bundle's file name, as the server names it. */
export function bundleFileName(id: string): string {
  return `gatehouse-session-${id}.tar`;
}

/**
 * The download link of a session's evidence bundle: a short-lived ticket (POST
 * api/recording/{id}/ticket, audited) in the URL, so the browser's own download fetches it (the
 * bundle can be gigabytes; it is never held in the page). The download itself is audited too.
 */
export async function bundleDownloadUrl(id: string): Promise<string> {
  const { ticket } = await apiCall(API.openRecording, { params: { id } });
  return buildUrl(API.getRecordingBundle.path, { id }, { ticket });
}

/** Downloads a finished session's evidence bundle (gatehouse-session-<id>.tar). */
export function useDownloadBundle() {
  return useMutation({
    mutationFn: async (id: string) => {
      const link = document.createElement('a');
      link.href = await bundleDownloadUrl(id);
      link.download = bundleFileName(id);
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
    },
  });
}
