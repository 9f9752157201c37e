import type { BodyOf, ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { AUDIT_API, AUDIT_KEYS } from './audit-routes';

/** The streaming settings and delivery status (the webhook secret never comes back). */
export type AuditStreaming = ResponseOf<Routes['getAuditStreaming']>;
/** What saving sends; webhook.secret only when a new one is typed. */
export type AuditStreamingBody = BodyOf<Routes['saveAuditStreaming']>;

/** GET api/audit/streaming (administrators), refreshed every 10 s so the status stays current. */
export function useAuditStreaming(enabled: boolean) {
  return useQuery({
    queryKey: AUDIT_KEYS.streaming,
    queryFn: ({ signal }) => apiCall(AUDIT_API.getAuditStreaming, { signal }),
    enabled,
    refetchInterval: 10_000,
  });
}

/** PUT api/audit/streaming; the answer replaces the cached settings. */
export function useSaveAuditStreaming() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AuditStreamingBody) => apiCall(AUDIT_API.saveAuditStreaming, { body }),
    onSuccess: (answer) => client.setQueryData(AUDIT_KEYS.streaming, answer),
  });
}
