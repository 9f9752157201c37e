import { useMutation } from '@tanstack/react-query';
import { apiCall, buildUrl } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/**
 * The download link of a recording's asciicast: a short-lived ticket (POST api/recording/{id}/ticket,
 * audited) in the URL instead of the token header, so the browser's own download can fetch it.
 */
export async function castDownloadUrl(id: string): Promise<string> {
  const { ticket } = await apiCall(API.openRecording, { params: { id } });
  return buildUrl(API.getRecordingCast.path, { id }, { ticket, download: 'true' });
}

/** Starts the browser's download of a URL of this origin. */
function saveFrom(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Downloads a recording as <id>.cast (asciicast v2, plays in asciinema). */
export function useDownloadCast() {
  return useMutation({
    mutationFn: async (id: string) => saveFrom(await castDownloadUrl(id), `${id}.cast`),
  });
}
