import { TOKEN_HEADER } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { buildUrl } from '../../../lib/api-client';
import { ApiError, asErrorBody } from '../../../lib/api-error';
import { getToken } from '../../../lib/session';
import { AUDIT_API } from './audit-routes';
import { type AuditScreenFilters, filterQuery } from './list-audit';

/** The file name the server gives in Content-Disposition, or a fallback. */
function fileNameOf(response: Response, format: string): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? `gatehouse-audit.${format}`;
}

/**
 * GET api/audit/export with the token header (the server streams it), saved by the browser under
 * the server's file name.
 */
async function exportAudit(filters: AuditScreenFilters, format: 'csv' | 'jsonl'): Promise<void> {
  const token = getToken();
  const response = await fetch(buildUrl(AUDIT_API.auditExport.path, undefined, { ...filterQuery(filters), format }), {
    headers: token ? { [TOKEN_HEADER]: token } : {},
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, asErrorBody(body));
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileNameOf(response, format);
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Exports the filtered entries as CSV or JSON Lines. */
export function useExportAudit() {
  return useMutation({
    mutationFn: ({ filters, format }: { filters: AuditScreenFilters; format: 'csv' | 'jsonl' }) =>
      exportAudit(filters, format),
  });
}
